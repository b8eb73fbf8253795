import { parameterOf, parseAccept, parseContentType, type MediaType } from './media-type.js'

/*
 * The string form: every int64 field a JSON string of its decimal digits, as the proto3 JSON
 * mapping writes int64, for clients whose JSON parser reads numbers as doubles (and rounds them
 * above 2^53). A request asks for it with a parameter of its media type, in each direction
 * apart: `Content-Type` for the body it sends, `Accept` for the answer it reads.
 */

/** The media type of the string form. */
export const INT64_STRING_TYPE = 'application/json; int64=string'

const MENTIONS_INT64 = /int64/i

const isStringForm = (media: MediaType): boolean =>
  media.type === 'application/json' && parameterOf(media, 'int64')?.toLowerCase() === 'string'

/**
 * Whether a `Content-Type` names the string form (`q` is no weight there). Nearly every request
 * names no `int64` parameter at all: a regular expression test answers for it, with nothing
 * allocated.
 */
export const sendsInt64Strings = (contentType: string | undefined): boolean => {
  if (contentType === undefined || !MENTIONS_INT64.test(contentType)) return false
  const media = parseContentType(contentType, ['int64'])
  return media !== undefined && isStringForm(media)
}

/** Whether an item of a valid `Accept` names the string form with a `q` above 0. */
export const asksInt64Strings = (accept: string | undefined): boolean => {
  if (accept === undefined || !MENTIONS_INT64.test(accept)) return false
  const ranges = parseAccept(accept, { type: 'application/json', names: ['int64', 'q'] }) ?? []
  return ranges.some((media) => isStringForm(media) && Number(parameterOf(media, 'q') ?? 1) > 0)
}
