import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import {
  OPERATIONS,
  Pet,
  writeNewPetJson,
  type NewPetFields,
  type Operation,
} from '../../core/index.js'
import { decodeAnswer } from './answers.js'
import { clientError, type ClientError } from './client-error.js'
import { newIdempotencyKey } from './idempotency-key.js'
import { nextRequest, queryOf, type ListPetsRequest } from './next-page.js'
import type { ClientOptions } from './options.js'
import { createSender, type CallOptions } from './send.js'

export type { CallOptions }

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
  let deprecationReported = false

  const decodePage = decodeAnswer(OPERATIONS.listPets, Pets, 'list of pets')
  const listPets = (
    request: ListPetsRequest = {},
    options: CallOptions = {},
  ): Result<ListPetsPage> =>
    call(OPERATIONS.listPets, `${OPERATIONS.listPets.path}${queryOf(request)}`, options, (answer) =>
      E.chain((pets: ReadonlyArray<Pet>) =>
        E.bimap(
          (why: string) =>
            clientError({
              code: 'undecodable',
              message: `the answer ${why}`,
              status: answer.status,
            }),
          (next: ListPetsRequest | undefined) => ({ pets, next }),
        )(nextRequest(answer.headers.get('link'), base)),
      )(decodePage(answer)),
    )

  const decodePet = (operation: Operation) => decodeAnswer(operation, Pet, 'pet')
  const createPet = (pet: NewPetFields, options: CreatePetOptions = {}): Result<Pet> => {
    const body = writeNewPetJson(pet)
    const key = options.idempotencyKey ?? newIdempotencyKey()
    const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': key }
    return call(
      OPERATIONS.createPet,
      OPERATIONS.createPet.path,
      options,
      decodePet(OPERATIONS.createPet),
      { headers, body },
    )
  }

  const getPet = (id: bigint, options: CallOptions = {}): Result<Pet> => {
    const path = OPERATIONS.getPet.path.replace('{petId}', String(id))
    const decode = decodePet(OPERATIONS.getPet)
    return call(OPERATIONS.getPet, path, options, (answer) => {
      const deprecation = answer.headers.get('deprecation')
      if (deprecation !== null && !deprecationReported) {
        deprecationReported = true
        client.onDeprecation?.({
          operationId: OPERATIONS.getPet.operationId,
          deprecation,
          sunset: answer.headers.get('sunset'),
          link: answer.headers.get('link'),
        })
      }
      return decode(answer)
    })
  }

  return { listPets, createPet, getPet }
}
