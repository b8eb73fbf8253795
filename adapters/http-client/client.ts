import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { NewPetFields, Pet } from '../../core/index.js'
import { createCalls, type CallOptions, type CreatePetOptions, type ListPetsPage } from './calls.js'
import type { ClientError } from './client-error.js'
import { stalledAt, type ListPetsRequest } from './next-page.js'
import type { ClientOptions } from './options.js'

/** The calls as fp-ts TaskEithers: the same requests, retries and failures, never throwing. */
export type TaskEitherCalls = {
  /** One page of pets; its `next` asks for the following one. */
  readonly listPets: (
    request?: ListPetsRequest,
    options?: CallOptions,
  ) => TE.TaskEither<ClientError, ListPetsPage>
  /** Creates a pet, retried safely under the same idempotency key. */
  readonly createPet: (
    pet: NewPetFields,
    options?: CreatePetOptions,
  ) => TE.TaskEither<ClientError, Pet>
  /** @deprecated `GET /pets/{petId}` is removed on 2030-12-05: use `listPets`. */
  readonly getPet: (id: bigint, options?: CallOptions) => TE.TaskEither<ClientError, Pet>
}

/** A client of one Animal Store service. Each call rejects only with a {@link ClientError}. */
export type AnimalStoreClient = {
  /** One page of pets in ascending id order, and the request for the next page. */
  readonly listPets: (request?: ListPetsRequest, options?: CallOptions) => Promise<ListPetsPage>
  /** Every page from `request` on, following the answers' `Link: rel="next"`. */
  readonly pages: (
    request?: ListPetsRequest,
    options?: CallOptions,
  ) => AsyncGenerator<ReadonlyArray<Pet>, void, undefined>
  /**
   * Adds a pet, once: every attempt sends the same Idempotency-Key and body, so a retry after a
   * lost answer gets the first attempt's pet back instead of storing a second.
   */
  readonly createPet: (pet: NewPetFields, options?: CreatePetOptions) => Promise<Pet>
  /**
   * One pet by id.
   * @deprecated `GET /pets/{petId}` is removed on 2030-12-05 (the service then answers 410
   * `gone`): use `listPets`. Its `Deprecation` and `Sunset` headers go to `onDeprecation`.
   */
  readonly getPet: (id: bigint, options?: CallOptions) => Promise<Pet>
  /** The same calls for fp-ts programs. */
  readonly taskEither: TaskEitherCalls
}

const settle = async <A>(result: Promise<E.Either<ClientError, A>>): Promise<A> => {
  const settled = await result
  if (E.isLeft(settled)) throw settled.left
  return settled.right
}

/**
 * A client for the service at `options.baseUrl`; it holds no connection of its own.
 *
 * @example
 * ```ts
 * import { createClient, isClientError } from 'animal-store/client'
 *
 * const client = createClient({
 *   baseUrl: process.env.ANIMAL_STORE_URL ?? 'http://localhost:8080/v1', // base path included
 *   apiKey: process.env.ANIMAL_STORE_KEY ?? '',
 * })
 * try {
 *   const rex = await client.createPet({ name: 'Rex', categoryId: 9223372036854775807n })
 *   console.log(rex.id, rex.categoryId) // bigints, never rounded
 *   for await (const page of client.pages({ status: 'available' }))
 *     console.log(page.map((pet) => pet.name))
 * } catch (error) {
 *   if (!isClientError(error)) throw error
 *   console.log(error.code, error.message) // one of a closed set of codes
 * }
 * ```
 */
export const createClient = (options: ClientOptions): AnimalStoreClient => {
  const calls = createCalls(options)
  async function* pages(request: ListPetsRequest = {}, callOptions: CallOptions = {}) {
    for (let next: ListPetsRequest | undefined = request; next !== undefined;) {
      const page: ListPetsPage = await settle(calls.listPets(next, callOptions))
      yield page.pets
      const stalled = page.next && stalledAt(next, page.pets, page.next)
      if (stalled !== undefined) throw stalled
      next = page.next
    }
  }
  return {
    listPets: (request, callOptions) => settle(calls.listPets(request, callOptions)),
    pages,
    createPet: (pet, callOptions) => settle(calls.createPet(pet, callOptions)),
    getPet: (id, callOptions) => settle(calls.getPet(id, callOptions)),
    taskEither: {
      listPets: (request, callOptions) => () => calls.listPets(request, callOptions),
      createPet: (pet, callOptions) => () => calls.createPet(pet, callOptions),
      getPet: (id, callOptions) => () => calls.getPet(id, callOptions),
    },
  }
}
