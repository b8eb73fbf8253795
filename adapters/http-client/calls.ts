import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import {
  OPERATIONS,
  Pet,
  writeNewPetJson,
  type NewPetFields,
  type Operation,
} from '../../core/index.js'
import { pipe } from 'fp-ts/lib/function.js'
import { decodeAnswer, undecodable } from './answers.js'
import type { ClientError } from './client-error.js'
import { onceDeprecated } from './once-deprecated.js'
import type { Answer } from './exchange.js'
import { newIdempotencyKey } from './idempotency-key.js'
import { nextRequest, queryOf, type ListPetsRequest } from './next-page.js'
import type { ClientOptions } from './options.js'
import { pathOf } from './path.js'
import { createSender, type CallOptions } from './send.js'

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

type Result<A> = Promise<E.Either<ClientError, A>>

const Pets = t.readonlyArray(Pet)

/** The three operations, each a promise of an Either: never rejecting. */
export const createCalls = (client: ClientOptions) => {
  const base = client.baseUrl.replace(/\/+$/, '')
  const call = createSender(client, base)
  const reportDeprecation = onceDeprecated(OPERATIONS.getPet, client.onDeprecation)

  const decodePage = decodeAnswer(OPERATIONS.listPets, Pets, 'list of pets')
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
  const listPets = (
    request: ListPetsRequest = {},
    options: CallOptions = {},
  ): Result<ListPetsPage> =>
    call(
      OPERATIONS.listPets,
      pathOf(OPERATIONS.listPets.path, {}) + queryOf(request),
      options,
      pageOf,
    )

  const decodePet = (operation: Operation) => decodeAnswer(operation, Pet, 'pet')
  const createPet = (pet: NewPetFields, options: CreatePetOptions = {}): Result<Pet> => {
    const body = writeNewPetJson(pet)
    const key = options.idempotencyKey ?? newIdempotencyKey()
    const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': key }
    return call(
      OPERATIONS.createPet,
      pathOf(OPERATIONS.createPet.path, {}),
      options,
      decodePet(OPERATIONS.createPet),
      { headers, body },
    )
  }

  const getPet = (id: bigint, options: CallOptions = {}): Result<Pet> => {
    const path = pathOf(OPERATIONS.getPet.path, { petId: String(id) })
    const decode = decodePet(OPERATIONS.getPet)
    return call(OPERATIONS.getPet, path, options, (answer) => {
      reportDeprecation(answer)
      return decode(answer)
    })
  }

  return { listPets, createPet, getPet }
}
