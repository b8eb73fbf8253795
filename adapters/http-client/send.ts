import * as E from 'fp-ts/lib/Either.js'
import type { Operation } from '../../core/index.js'
import { DEFAULT_MAX_ANSWER_BYTES } from './answer-body.js'
import { DEFAULT_BUDGET, type RetryBudget } from './budget.js'
import type { ClientError } from './client-error.js'
import { exchange, type Answer } from './exchange.js'
import type { ClientOptions } from './options.js'
import { withRetries, type RetryNotice } from './retry.js'
import { checkSettings } from './settings.js'

/** Every call takes these; each overrides the client's own setting for this call only. */
export type CallOptions = {
  /** Aborts the call, its retries and its waits: it rejects with `aborted`. */
  readonly signal?: AbortSignal
  /** How long one attempt may wait for its whole answer. */
  readonly timeoutMs?: number
  readonly budget?: Partial<RetryBudget>
}

type Extra = { readonly headers?: Record<string, string>; readonly body?: string }

/**
 * Sends an operation's request, decodes each answer, and retries what is transient within the
 * budget: the decoded failure decides, so an answer's Retry-After is honoured. A call whose
 * options are out of range rejects with a RangeError, a bug of the caller's, before sending.
 */
export const createSender = (client: ClientOptions, base: string) => {
  const fetchFn = client.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const authorization = `Bearer ${client.apiKey}`
  const maxAnswerBytes = client.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES
  return async <A>(
    operation: Operation,
    path: string,
    options: CallOptions,
    decode: (answer: Answer) => E.Either<ClientError, A>,
    extra: Extra = {},
  ): Promise<E.Either<ClientError, A>> => {
    const headers = { Accept: 'application/json', Authorization: authorization, ...extra.headers }
    const onRetry = client.onRetry
    checkSettings(options)
    return withRetries(
      async (timeoutMs) =>
        E.chain(decode)(
          await exchange(fetchFn, {
            url: `${base}${path}`,
            method: operation.method,
            headers,
            ...(extra.body === undefined ? {} : { body: extra.body }),
            signal: options.signal,
            timeoutMs,
            maxAnswerBytes,
          }),
        ),
      {
        budget: { ...DEFAULT_BUDGET, ...client.budget, ...options.budget },
        timeoutMs: options.timeoutMs ?? client.timeoutMs ?? 10_000,
        signal: options.signal,
        onRetry:
          onRetry &&
          ((notice: RetryNotice) => onRetry({ ...notice, operationId: operation.operationId })),
      },
    )
  }
}
