import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type * as t from 'io-ts'
import { decodeWith, ErrorBody, readJson, type Operation } from '../../core/index.js'
import { clientError, type ClientError } from './client-error.js'
import type { Answer } from './exchange.js'

/** Retry-After in seconds: delta-seconds, or an HTTP date (RFC 9110 §10.2.3). */
export const retryAfterSeconds = (header: string | null, now = Date.now()): number | undefined => {
  if (header === null) return undefined
  if (/^\s*\d+\s*$/.test(header)) return Number(header)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

export const undecodable = (status: number, why: string): ClientError =>
  clientError({ code: 'undecodable', message: `the answer (${status}) ${why}`, status })

/** A failure answer: its Error body, checked, with its Retry-After. */
const failureOf = (answer: Answer): ClientError =>
  pipe(
    readJson(answer.text),
    E.chainW(decodeWith(ErrorBody, 'error')),
    E.filterOrElseW(
      (body) => body.status === answer.status,
      (body) => ({ problems: [`status ${body.status} differs from the HTTP status`] }),
    ),
    E.match(
      (e) => undecodable(answer.status, `is not an Error body: ${e.problems.join('; ')}`),
      (body) => {
        const retryAfter = retryAfterSeconds(answer.headers.get('retry-after'))
        return clientError({
          ...body,
          ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
        })
      },
    ),
  )

/**
 * The operation's result from an answer: its success status with a body the codec accepts (ids
 * read exactly, never through a float), else the failure the answer says.
 */
export const decodeAnswer =
  <A>(operation: Operation, codec: t.Decoder<unknown, A>, root: string) =>
  (answer: Answer): E.Either<ClientError, A> =>
    answer.status !== operation.success
      ? E.left(failureOf(answer))
      : pipe(
          readJson(answer.text),
          E.chain(decodeWith(codec, root)),
          E.mapLeft((e) =>
            undecodable(answer.status, `is not a valid ${root}: ${e.problems.join('; ')}`),
          ),
        )
