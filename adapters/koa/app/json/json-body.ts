import * as E from 'fp-ts/lib/Either.js'
import type { AppContext } from '../../request/app-state.js'
import { parseContentType } from '../../request/media-type.js'
import { parseExactly } from '../../../../core/json/exact.js'
import type { Problem } from '../../response/problem.js'

type BodyProblem = Extract<
  Problem,
  { _tag: 'MalformedJson' | 'UnsupportedMediaType' | 'PayloadTooLarge' }
>
export type BodyResult = E.Either<BodyProblem, unknown>

const isUtf8 = (charset: string): boolean => charset.toLowerCase() === 'utf-8'

/** The media type is JSON, and its charset, if given, is UTF-8; other parameters are ignored. */
const isJsonType = (contentType: string): boolean => {
  if (contentType === 'application/json') return true // as nearly every client sends it
  const media = parseContentType(contentType, ['charset'])
  if (media?.type !== 'application/json') return false
  return media.parameters.every(([name, value]) => name !== 'charset' || isUtf8(value))
}
const utf8 = new TextDecoder('utf-8', { fatal: true })

const fail = (problem: BodyProblem): BodyResult => E.left(problem)

export const checkContentType = (contentType: string | undefined): BodyResult | undefined =>
  contentType !== undefined && isJsonType(contentType)
    ? undefined
    : fail({
        _tag: 'UnsupportedMediaType',
        detail: 'the body must be sent as Content-Type: application/json (charset utf-8)',
      })

/** A compressed body is refused rather than stored as the bytes it is. */
export const checkEncoding = (encoding: string | undefined): BodyResult | undefined =>
  encoding === undefined || /^\s*identity\s*$/i.test(encoding)
    ? undefined
    : fail({
        _tag: 'UnsupportedMediaType',
        detail: 'the body must not be encoded: no Content-Encoding other than identity',
      })

/**
 * Every declared byte, when they all came with the headers (as nearly always): taken from the
 * stream's buffer at once, without the async iterator's listeners and promise per chunk (15% of
 * a create). Node marks the request complete only after the handler's microtasks have run.
 */
const takeWhole = (ctx: AppContext, declared: number): Buffer | undefined => {
  const req = ctx.req
  if (declared === 0 || req.readableLength !== declared || req.readableDidRead) return undefined
  ctx.state.bodyTaken = true
  return req.read() as Buffer
}

/** Reads the rest as it arrives, at most `maxBytes`: undefined once the body shows it is larger. */
const readCapped = async (ctx: AppContext, maxBytes: number): Promise<Buffer | undefined> => {
  const req = ctx.req
  // A client that sent `Expect: 100-continue` is invited only now: media type and size are fine.
  ctx.state.inviteBody?.()
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) return undefined
    chunks.push(chunk)
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
}

const parseJson = (bytes: Buffer): BodyResult => {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return fail({ _tag: 'MalformedJson', detail: 'the body is not valid UTF-8' })
  }
  if (text.trim() === '')
    return fail({ _tag: 'MalformedJson', detail: 'the body is empty: send a JSON object' })
  try {
    const { value, duplicateKey } = parseExactly(text)
    return duplicateKey === undefined
      ? E.right(value)
      : fail({
          _tag: 'MalformedJson',
          detail: `the body repeats the key ${JSON.stringify(duplicateKey)}`,
        })
  } catch (error) {
    // Also catches the RangeError of a too deeply nested document.
    const reason = error instanceof SyntaxError ? error.message : 'it is nested too deeply'
    return fail({ _tag: 'MalformedJson', detail: `the body is not valid JSON: ${reason}` })
  }
}

/** What the log says when a host read the request's body before the app could. */
export const BODY_READ_BEFORE =
  'the request body was read before the app: mount the app before any body parser, or beside it'

const tooLarge = (maxBytes: number): BodyResult => fail({ _tag: 'PayloadTooLarge', maxBytes })

/**
 * The JSON body of a request: media type and encoding first, then size, then syntax. A larger
 * body than `maxBytes` is refused as soon as its size shows, never buffered. Synchronous when
 * the body came whole with the headers: no promise for the common case.
 */
export const readJsonBody = (
  ctx: AppContext,
  maxBytes: number,
): BodyResult | Promise<BodyResult> => {
  const req = ctx.req
  const wrong =
    checkContentType(req.headers['content-type']) ?? checkEncoding(req.headers['content-encoding'])
  if (wrong !== undefined) return wrong
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > maxBytes) return tooLarge(maxBytes)
  // Only a host can have read it (a body parser in front of a mounted app): the client sent a
  // body the app can no longer see, so this is the server's fault (500), not an empty body.
  if (req.readableDidRead) throw new Error(BODY_READ_BEFORE)
  const whole = takeWhole(ctx, declared)
  if (whole !== undefined) return parseJson(whole)
  return readCapped(ctx, maxBytes).then((bytes) =>
    bytes === undefined ? tooLarge(maxBytes) : parseJson(bytes),
  )
}
