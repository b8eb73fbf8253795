import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import {
  decodeWith,
  LIST_LIMITS,
  listPetsQueryCodec,
  OPERATIONS,
  type Pet,
  type PetStatus,
} from '../../core/index.js'
import { clientError, type ClientError } from './client-error.js'

/**
 * A next link's query. Its page size is the service's to choose (it may be configured wider
 * than the interface's 100), so any positive size is followed.
 */
const ListPetsQueryParams = listPetsQueryCodec({ ...LIST_LIMITS, max: Number.MAX_SAFE_INTEGER })
type ListPetsQuery = t.TypeOf<typeof ListPetsQueryParams>

/** Which page to list: `after` is the last id of the page before. */
export type ListPetsRequest = {
  readonly limit?: number
  readonly status?: PetStatus
  readonly after?: bigint
}

/** The query string of a listing request. */
export const queryOf = ({ limit, status, after }: ListPetsRequest): string => {
  const query = new URLSearchParams()
  if (limit !== undefined) query.set('limit', String(limit))
  if (status !== undefined) query.set('status', status)
  if (after !== undefined) query.set('after', String(after))
  const text = query.toString()
  return text === '' ? '' : `?${text}`
}

const NEXT = /<([^>]*)>\s*;\s*rel="?next"?(?:\s*[;,]|\s*$)/

/**
 * The request for the next page, from the answer's `Link: <…>; rel="next"`, its query read with
 * the service's own codec; undefined on the last page. A next link the codec refuses is an
 * error, never taken for the last page.
 */
export const nextRequest = (
  link: string | null,
  base: string,
): E.Either<string, ListPetsRequest | undefined> => {
  const target = link === null ? undefined : NEXT.exec(link)?.[1]
  if (target === undefined) return E.right(undefined)
  const params = Object.fromEntries(new URL(target, base).searchParams)
  return E.bimap(
    (e: { problems: ReadonlyArray<string> }) =>
      `has a next link the client cannot follow: ${e.problems.join('; ')}`,
    ({ limit, status, after }: ListPetsQuery): ListPetsRequest => ({
      ...(limit === undefined ? {} : { limit }),
      ...(status === undefined ? {} : { status }),
      ...(after === undefined ? {} : { after }),
    }),
  )(decodeWith(ListPetsQueryParams, 'query')(params))
}

/**
 * Why `pages()` must not follow a page's next link: it asks for no ids past the last one the page
 * returned (or, on an empty page, past the request's), so it would repeat pages, maybe forever.
 */
export const stalledAt = (
  request: ListPetsRequest,
  pets: ReadonlyArray<Pet>,
  next: ListPetsRequest,
): ClientError | undefined => {
  const before = request.after ?? 0n
  const lastId = pets.at(-1)?.id ?? before
  const after = next.after
  if (after !== undefined && after >= lastId && after > before) return undefined
  return clientError({
    code: 'pagination_stalled',
    message: `the next link asks for ids after ${after ?? '(none: from the start)'}, not past ${lastId}, the last id returned: following it would repeat pages`,
    status: OPERATIONS.listPets.success,
    lastId,
    after,
  })
}
