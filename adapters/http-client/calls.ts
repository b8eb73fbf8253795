import * as E from 'fp-ts/lib/Either.js'
import {
  OPERATIONS,
  writeNewPetJson,
  type NewPetFields,
  type Pet,
  type SpecifiedOperationId,
} from '../../core/index.js'
import { pipe } from 'fp-ts/lib/function.js'
import { decodeAnswer } from './answers.js'
import { undecodable, type ClientError } from './client-error.js'
import { onceDeprecated } from './once-deprecated.js'
import type { Answer } from './exchange.js'
import { checkExactId } from './exact-id.js'
import { newIdempotencyKey } from './idempotency-key.js'
import { nextRequest, queryOf, type ListPetsRequest } from './next-page.js'
import type { ClientOptions } from './options.js'
import { pathOf } from './path.js'
import { createSender, type CallOptions } from './send.js'
import { checkHeaderValue } from './settings.js'

export type { CallOptions }

/** The options of a create: those of every call, and its idempotency key. */
export type CreatePetOptions = CallOptions & {
  /** Sent as Idempotency-Key on every attempt; a random UUID when not given. */
  readonly idempotencyKey?: string
}

/** A page of pets, and the request for the next one (undefined on the last page). */
export type ListPetsPage = {
  readonly pets: ReadonlyArray<Pet>
  readonly next: ListPetsRequest | undefined
}

/** What a call settles to: never a rejection. */
export type Result<A> = Promise<E.Either<ClientError, A>>

type EveryOperation<
  T extends { readonly [K in SpecifiedOperationId]: (...args: never[]) => Result<unknown> },
> = T

/**
 * The client's call of each operation. Typed over every operation the client calls: an operation
 * added to `OPERATIONS` fails to compile here until it has its call.
 */
export type Calls = EveryOperation<{
  /** One page of pets in ascending id order, and the request for the next page. */
  readonly listPets: (request?: ListPetsRequest, options?: CallOptions) => Result<ListPetsPage>
  /**
   * Adds a pet, once: every attempt sends the same Idempotency-Key and body, so a retry after a
   * lost answer gets the first attempt's pet back instead of storing a second.
   */
  readonly createPet: (pet: NewPetFields, options?: CreatePetOptions) => Result<Pet>
  /**
   * One pet by id.
   * @deprecated `GET /pets/{petId}` is removed on 2030-12-05 (the service then answers 410
   * `gone`): use `listPets`. Its `Deprecation` and `Sunset` headers go to `onDeprecation`.
   */
  readonly getPet: (id: bigint, options?: CallOptions) => Result<Pet>
}>

/** Each operation, a promise of an Either: never rejecting. */
export const createCalls = (client: ClientOptions): Calls => {
  const base = client.baseUrl.replace(/\/+$/, '')
  const call = createSender(client, base)
  const reportDeprecation = onceDeprecated(OPERATIONS.getPet, client.onDeprecation)

  const decodePage = decodeAnswer('listPets')
  /** The page, and the next page's request from its Link header. */
  const pageOf = (answer: Answer): E.Either<ClientError, ListPetsPage> =>
    pipe(
      decodePage(answer),
      E.chain((pets) =>
        pipe(
          nextRequest(answer.headers.get('link'), base),
          E.bimap(
            (why) => undecodable(answer.status, why),
            (next) => ({ pets, next }),
          ),
        ),
      ),
    )
  const listPets = async (
    request: ListPetsRequest = {},
    options: CallOptions = {},
  ): Result<ListPetsPage> => {
    checkExactId('after', request.after)
    return call(
      OPERATIONS.listPets,
      pathOf(OPERATIONS.listPets.path, {}) + queryOf(request),
      options,
      pageOf,
    )
  }

  const createPet = async (pet: NewPetFields, options: CreatePetOptions = {}): Result<Pet> => {
    checkExactId('categoryId', pet.categoryId)
    checkHeaderValue('idempotencyKey', options.idempotencyKey)
    const body = writeNewPetJson(pet)
    const key = options.idempotencyKey ?? newIdempotencyKey()
    const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': key }
    return call(
      OPERATIONS.createPet,
      pathOf(OPERATIONS.createPet.path, {}),
      options,
      decodeAnswer('createPet'),
      { headers, body },
    )
  }

  const getPet = async (id: bigint, options: CallOptions = {}): Result<Pet> => {
    checkExactId('id', id)
    const path = pathOf(OPERATIONS.getPet.path, { petId: String(id) })
    const decode = decodeAnswer('getPet')
    return call(OPERATIONS.getPet, path, options, (answer) => {
      reportDeprecation(answer)
      return decode(answer)
    })
  }

  return { listPets, createPet, getPet }
}
