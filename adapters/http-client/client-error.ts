import type { ErrorCode } from '../../core/index.js'

/** The service answered with an Error body: its `code`, its status and its message. */
export type ServiceFailure = {
  readonly code: ErrorCode
  readonly status: number
  readonly message: string
  /** From `Retry-After`, when the answer had one (503, 429, 409). */
  readonly retryAfterSeconds?: number
}

/** Why a call failed: a closed set, switched on by `code`. */
export type ClientFailure =
  | ServiceFailure
  /** No answer: the connection was refused, reset or closed before an answer came. */
  | { readonly code: 'network'; readonly message: string; readonly cause: unknown }
  /** No answer within the attempt's time (`timeoutMs`). */
  | { readonly code: 'timeout'; readonly message: string; readonly timeoutMs: number }
  /** The caller's AbortSignal fired; `reason` is the signal's. */
  | { readonly code: 'aborted'; readonly message: string; readonly reason: unknown }
  /** Every attempt failed on a transient answer, and the budget allows no more; `last` is why. */
  | {
      readonly code: 'budget_exhausted'
      readonly message: string
      readonly attempts: number
      readonly elapsedMs: number
      readonly last: ClientError
    }
  /** An answer that is neither the operation's success nor an Error body, or of the wrong shape. */
  | { readonly code: 'undecodable'; readonly message: string; readonly status: number }
  /** An answer whose body is larger than `maxAnswerBytes`: reading stopped at the bound. */
  | {
      readonly code: 'answer_too_large'
      readonly message: string
      readonly status: number
      readonly maxAnswerBytes: number
    }
  /**
   * `pages()` only: a next link that does not ask for ids past the last one returned (`lastId`),
   * so following it would repeat pages; `after` is the link's, `status` the page's (200).
   */
  | {
      readonly code: 'pagination_stalled'
      readonly message: string
      readonly status: number
      readonly lastId: bigint
      readonly after: bigint | undefined
    }

/**
 * What a call rejects with (or a TaskEither's left): an Error, so it has a stack and prints
 * well, that is also one member of {@link ClientFailure}, so `switch (error.code)` is exhaustive.
 */
export type ClientError = Error & ClientFailure

const clientErrors = new WeakSet<object>()

export const clientError = (failure: ClientFailure): ClientError => {
  const error = Object.assign(new Error(failure.message), failure, { name: 'ClientError' })
  clientErrors.add(error)
  return error as ClientError
}

/** Whether a caught value is a failure of this client (rather than a bug of the caller's). */
export const isClientError = (u: unknown): u is ClientError =>
  typeof u === 'object' && u !== null && clientErrors.has(u)

/** An answer the client cannot take: `why` says what is wrong with it. */
export const undecodable = (status: number, why: string): ClientError =>
  clientError({ code: 'undecodable', message: `the answer (${status}) ${why}`, status })
