import * as t from 'io-ts'

type Codecs = Record<string, t.Mixed>
type Decoded<R extends Codecs, O extends Codecs> = { [K in keyof R]: t.TypeOf<R[K]> } & {
  [K in keyof O]?: t.TypeOf<O[K]>
}

/** The codec, and its keys: the OpenAPI drift test compares them with the document. */
export type StrictStruct<A> = t.Type<A, unknown, unknown> & {
  readonly keys: {
    readonly required: ReadonlyArray<string>
    readonly optional: ReadonlyArray<string>
  }
}

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u)

/** The codec's errors for a value, run with the key's context so that the messages name it. */
const keyErrors = (codec: t.Mixed, value: unknown, context: t.Context): t.Errors => {
  const result = codec.validate(value, context)
  return result._tag === 'Left' ? result.left : []
}

/**
 * An object with exactly these keys. Unlike t.exact, an unknown key is an error rather than
 * silently dropped: a client that misspells `status` must hear about it. Every problem is
 * reported, not just the first. `noun` words the messages ("field", "parameter"); parameters
 * must appear once, so an array (a repeated query parameter) is refused with its own message.
 * `unknownKeys: 'ignore'` is for reading what another version wrote: a key this version does not
 * know is dropped from the result, not refused.
 */
export const strictStruct = <R extends Codecs, O extends Codecs>(
  name: string,
  required: R,
  optional: O,
  noun: 'field' | 'parameter',
  unknownKeys: 'refuse' | 'ignore' = 'refuse',
): StrictStruct<Decoded<R, O>> => {
  const known = new Set([...Object.keys(required), ...Object.keys(optional)])
  const requiredEntries = Object.entries(required)
  const optionalEntries = Object.entries(optional)
  const validate: t.Validate<unknown, Decoded<R, O>> = (u, c) => {
    if (!isRecord(u)) return t.failure(u, c, `must be a JSON object`)
    const errors: t.Errors = []
    const out: Record<string, unknown> = {}
    const check = (key: string, codec: t.Mixed, value: unknown) => {
      if (noun === 'parameter' && Array.isArray(value)) {
        const context = t.appendContext(c, key, codec, value)
        errors.push({ value, context, message: 'must be given only once' })
        return
      }
      // Valid input, the common case, is checked without building the key's context; only a
      // failure is checked again with it, so that its message names the key.
      const result = codec.validate(value, c)
      if (result._tag === 'Right') out[key] = result.right
      else errors.push(...keyErrors(codec, value, t.appendContext(c, key, codec, value)))
    }
    for (const key of unknownKeys === 'refuse' ? Object.keys(u) : []) {
      if (!known.has(key))
        errors.push({
          value: u[key],
          context: t.appendContext(c, key, t.never, u[key]),
          message: `is not a known ${noun}`,
        })
    }
    const valueOf = (key: string) => (Object.hasOwn(u, key) ? u[key] : undefined)
    for (const [key, codec] of requiredEntries) {
      const value = valueOf(key)
      if (value === undefined)
        errors.push({
          value: undefined,
          context: t.appendContext(c, key, codec, undefined),
          message: 'is required',
        })
      else check(key, codec, value)
    }
    for (const [key, codec] of optionalEntries) {
      const value = valueOf(key)
      if (value !== undefined) check(key, codec, value)
    }
    return errors.length > 0 ? t.failures(errors) : t.success(out as Decoded<R, O>)
  }
  const codec = new t.Type(
    name,
    (u): u is Decoded<R, O> => validate(u, [])._tag === 'Right',
    validate,
    (a) => a,
  )
  return Object.assign(codec, {
    keys: { required: Object.keys(required), optional: Object.keys(optional) },
  })
}
