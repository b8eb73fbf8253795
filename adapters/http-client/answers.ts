import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import {
  decodeWith,
  ErrorBody,
  OPERATIONS,
  Pet,
  readJson,
  type SpecifiedOperationId,
} from '../../core/index.js'
import { clientError, undecodable, type ClientError } from './client-error.js'
import type { Answer } from './exchange.js'
import { retryAfterSeconds } from './retry-after.js'

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

/** What a success answer carries: a JSON body that a codec reads, or none (a 204). */
export type AnswerBody =
  { readonly codec: t.Decoder<unknown, unknown>; readonly root: string } | 'none'

const json = <A>(codec: t.Decoder<unknown, A>, root: string) => ({ codec, root })

/**
 * The body of each operation's success answer. Typed over every operation the client calls: an
 * operation added to `OPERATIONS` fails to compile here until its answer is described.
 */
const ANSWER_BODIES = {
  listPets: json(t.readonlyArray(Pet), 'list of pets'),
  createPet: json(Pet, 'pet'),
  getPet: json(Pet, 'pet'),
} as const satisfies { readonly [K in SpecifiedOperationId]: AnswerBody }

/** What an operation's success answer decodes to: its codec's type, or undefined for none. */
export type AnswerOf<K extends SpecifiedOperationId> = (typeof ANSWER_BODIES)[K] extends {
  readonly codec: t.Decoder<unknown, infer A>
}
  ? A
  : undefined

/** `application/json`, with or without parameters (`; charset=utf-8`). */
const isJson = (contentType: string | null): boolean =>
  contentType !== null && /^application\/json\s*(;|$)/i.test(contentType.trim())

export const decodeBody = (body: AnswerBody, answer: Answer): E.Either<ClientError, unknown> =>
  body === 'none'
    ? answer.text === ''
      ? E.right(undefined)
      : E.left(undecodable(answer.status, 'has a body where none is expected'))
    : !isJson(answer.headers.get('content-type'))
      ? E.left(
          undecodable(
            answer.status,
            `is ${answer.headers.get('content-type') ?? 'of no media type'}, not application/json`,
          ),
        )
      : pipe(
          readJson(answer.text),
          E.chain(decodeWith(body.codec, body.root)),
          E.mapLeft((e) =>
            undecodable(answer.status, `is not a valid ${body.root}: ${e.problems.join('; ')}`),
          ),
        )

/**
 * The operation's result from an answer: its success status with the body it describes (ids
 * read exactly, never through a float), else the failure the answer says.
 */
export const decodeAnswer =
  <K extends SpecifiedOperationId>(operationId: K) =>
  (answer: Answer): E.Either<ClientError, AnswerOf<K>> =>
    answer.status !== OPERATIONS[operationId].success
      ? E.left(failureOf(answer))
      : (decodeBody(ANSWER_BODIES[operationId], answer) as E.Either<ClientError, AnswerOf<K>>)
