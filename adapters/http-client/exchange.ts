import * as E from 'fp-ts/lib/Either.js'
import { readBounded } from './answer-body.js'
import { clientError, undecodable, type ClientError } from './client-error.js'
import { after } from './timer.js'

/** An answer as it came, before decoding. */
export type Answer = {
  readonly status: number
  readonly headers: { readonly get: (name: string) => string | null }
  readonly text: string
}

export type Exchange = {
  readonly url: string
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  readonly signal: AbortSignal | undefined
  readonly timeoutMs: number
  /** The largest body read; past it the answer is `answer_too_large`. */
  readonly maxAnswerBytes: number
}

/**
 * One request and its whole answer, within `timeoutMs` (the body included): never rejects.
 * The caller's signal and the timer abort the same fetch, and which fired says why it ended.
 */
export const exchange = async (
  fetchFn: typeof fetch,
  request: Exchange,
): Promise<E.Either<ClientError, Answer>> => {
  const { signal, timeoutMs } = request
  if (signal?.aborted) return E.left(aborted(signal))
  const controller = new AbortController()
  const onAbort = () => controller.abort(signal?.reason)
  signal?.addEventListener('abort', onAbort)
  let timedOut = false
  const cancelTimer = after(timeoutMs, () => {
    timedOut = true
    controller.abort()
  })
  try {
    const response = await fetchFn(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      // The service never redirects: following one would send the request (and its key) elsewhere.
      redirect: 'manual',
      signal: controller.signal,
    })
    if (isRedirect(response)) {
      await response.body?.cancel()
      return E.left(undecodable(response.status, 'is a redirect, which the client does not follow'))
    }
    const text = await readBounded(response, request.maxAnswerBytes)
    if (text === undefined) return E.left(tooLarge(response.status, request.maxAnswerBytes))
    return E.right({ status: response.status, headers: response.headers, text })
  } catch (cause) {
    if (signal?.aborted) return E.left(aborted(signal))
    if (timedOut)
      return E.left(
        clientError({ code: 'timeout', message: `no answer within ${timeoutMs} ms`, timeoutMs }),
      )
    const message = `no answer: ${cause instanceof Error ? cause.message : String(cause)}`
    return E.left(clientError({ code: 'network', message: message + corsHint(request.url), cause }))
  } finally {
    cancelTimer()
    signal?.removeEventListener('abort', onAbort)
  }
}

/** A 3xx, or in a browser the opaque answer (status 0) that stands for one under 'manual'. */
const isRedirect = (response: Response): boolean =>
  response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)

const tooLarge = (status: number, maxAnswerBytes: number): ClientError =>
  clientError({
    code: 'answer_too_large',
    message: `the answer (${status}) is larger than ${maxAnswerBytes} bytes (maxAnswerBytes): not read past it`,
    status,
    maxAnswerBytes,
  })

export const aborted = (signal: AbortSignal): ClientError =>
  clientError({ code: 'aborted', message: 'the call was aborted', reason: signal.reason })

/**
 * A browser reports a refusal by CORS exactly as a dead network (a bare TypeError), so the
 * client cannot tell them apart; from a page on another origin it says that it may be CORS.
 */
const corsHint = (url: string): string => {
  const page = (globalThis as { location?: { origin?: unknown } }).location?.origin
  if (typeof page !== 'string' || page === 'null' || !/^https?:/.test(page)) return ''
  const target = new URL(url, page).origin
  return target === page
    ? ''
    : ` (or CORS: this page's origin ${page} may not be on the service's CORS_ORIGINS list, which a browser reports the same way)`
}
