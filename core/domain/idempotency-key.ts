import * as t from 'io-ts'

/** At most this many characters (Stripe's limit): room for a UUID, a ULID or a hash, plus a prefix. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

/*
 * The IETF draft makes Idempotency-Key a Structured Field String (RFC 8941 sf-string): printable
 * ASCII in double quotes, with \" and \\ escaped. Most clients (Stripe's among them) send a bare
 * UUID instead, so a bare value of token-like characters is accepted too, and `"abc"` and `abc`
 * are the same key. Anything else (spaces outside quotes, non-ASCII, a list) is refused.
 */
const QUOTED = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/
const BARE = /^[A-Za-z0-9\-._~:+/=]+$/
/** The JSON Schema pattern of the header value, for the OpenAPI document. */
export const IDEMPOTENCY_KEY_PATTERN = `^(?:[A-Za-z0-9._~:+/=-]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}|"(?:[ !#-\\[\\]-~]|\\\\["\\\\]){1,${IDEMPOTENCY_KEY_MAX_LENGTH}}")$`

/** Marks a string as a checked {@link IdempotencyKey}. */
export type IdempotencyKeyBrand = { readonly IdempotencyKey: unique symbol }
export type IdempotencyKey = t.Branded<string, IdempotencyKeyBrand>

const valueOf = (header: string): string | undefined => {
  if (BARE.test(header)) return header
  const quoted = QUOTED.exec(header)?.[1]
  return quoted?.replace(/\\(["\\])/g, '$1')
}

const problemOf = (u: unknown): string | undefined => {
  if (Array.isArray(u)) return 'must be sent once'
  if (typeof u !== 'string') return 'must be a string'
  const value = valueOf(u)
  if (value === undefined)
    return 'must be a quoted string of printable ASCII, or a bare value of A-Z a-z 0-9 - . _ ~ : + / ='
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH)
    return `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters long (got ${value.length})`
  return undefined
}

/**
 * An Idempotency-Key header value, decoded to the key it names: a bare value as is, a quoted one
 * without its quotes and escapes. Repeated headers arrive as an array and are refused.
 */
export const IdempotencyKey = new t.Type<IdempotencyKey, string, unknown>(
  'IdempotencyKey',
  (u): u is IdempotencyKey => typeof u === 'string' && problemOf(u) === undefined,
  (u, c) => {
    const problem = problemOf(u)
    return problem === undefined
      ? t.success(valueOf(u as string) as IdempotencyKey)
      : t.failure(u, c, problem)
  },
  String,
)
