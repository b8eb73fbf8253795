import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Pet } from '../../core/index.js'
import {
  createCalls,
  type CallOptions,
  type Calls,
  type ListPetsPage,
  type Result,
} from './calls.js'
import type { ClientError } from './client-error.js'
import { stalledAt, type ListPetsRequest } from './next-page.js'
import type { ClientOptions } from './options.js'
import { checkBaseUrl, checkHeaderValue, checkSettings } from './settings.js'

type Settled<F> = F extends (...args: infer P) => Result<infer A>
  ? (...args: P) => Promise<A>
  : never
type Tasked<F> = F extends (...args: infer P) => Result<infer A>
  ? (...args: P) => TE.TaskEither<ClientError, A>
  : never

/**
 * The calls as fp-ts TaskEithers: the same requests, retries and failures, each a Left; only an
 * option or id out of range (a bug of the caller's) rejects, with a RangeError.
 */
export type TaskEitherCalls = { readonly [K in keyof Calls]: Tasked<Calls[K]> }

/**
 * A client of one Animal Store service: a call for each operation (each rejects only with a
 * {@link ClientError}), every page of a listing, and the same calls for fp-ts programs.
 */
export type AnimalStoreClient = { readonly [K in keyof Calls]: Settled<Calls[K]> } & {
  /** Every page from `request` on, following the answers' `Link: rel="next"`. */
  readonly pages: (
    request?: ListPetsRequest,
    options?: CallOptions,
  ) => AsyncGenerator<ReadonlyArray<Pet>, void, undefined>
  /** The same calls for fp-ts programs. */
  readonly taskEither: TaskEitherCalls
}

const settle = async <A>(result: Result<A>): Promise<A> => {
  const settled = await result
  if (E.isLeft(settled)) throw settled.left
  return settled.right
}

type AnyCall = (...args: unknown[]) => Result<unknown>

/** Each call of `calls` wrapped the same way, under its name (the types above say what each is). */
const wrapEach = <W>(calls: Calls, wrap: (call: AnyCall) => W) =>
  Object.fromEntries(Object.entries(calls).map(([name, call]) => [name, wrap(call as AnyCall)]))

/**
 * A client for the service at `options.baseUrl`; it holds no connection of its own. Throws a
 * RangeError naming an option out of its range (docs/client.md).
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
  checkSettings(options)
  checkBaseUrl(options.baseUrl)
  checkHeaderValue('apiKey', options.apiKey)
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
  const settled = wrapEach(
    calls,
    (call) =>
      (...args: unknown[]) =>
        settle(call(...args)),
  )
  const tasked = wrapEach(
    calls,
    (call) =>
      (...args: unknown[]) =>
      () =>
        call(...args),
  )
  return {
    ...(settled as { [K in keyof Calls]: Settled<Calls[K]> }),
    pages,
    taskEither: tasked as TaskEitherCalls,
  }
}
