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

/**
 * An object with exactly these keys. Unlike t.exact, an unknown key is an error rather than
 * silently dropped: a client that misspells `status` must hear about it. Every problem is
 * reported, not just the first. `noun` words the messages ("field", "parameter"); parameters
 * must appear once, so an array (a repeated query parameter) is refused with its own message.
 */
export const strictStruct = <R extends Codecs, O extends Codecs>(
  name: string,
  required: R,
  optional: O,
  noun: 'field' | 'parameter',
): StrictStruct<Decoded<R, O>> => {
  const known = new Set([...Object.keys(required), ...Object.keys(optional)])
  const validate: t.Validate<unknown, Decoded<R, O>> = (u, c) => {
    if (!isRecord(u)) return t.failure(u, c, `must be a JSON object`)
    const errors: t.Errors = []
    const out: Record<string, unknown> = {}
    const check = (key: string, codec: t.Mixed, value: unknown) => {
      const context = t.appendContext(c, key, codec, value)
      if (noun === 'parameter' && Array.isArray(value)) {
        errors.push({ value, context, message: 'must be given only once' })
        return
      }
      const result = codec.validate(value, context)
      if (result._tag === 'Left') errors.push(...result.left)
      else out[key] = result.right
    }
    for (const key of Object.keys(u)) {
      if (!known.has(key))
        errors.push({
          value: u[key],
          context: t.appendContext(c, key, t.never, u[key]),
          message: `is not a known ${noun}`,
        })
    }
    const valueOf = (key: string) => (Object.hasOwn(u, key) ? u[key] : undefined)
    for (const [key, codec] of Object.entries(required)) {
      const value = valueOf(key)
      if (value === undefined)
        errors.push({
          value: undefined,
          context: t.appendContext(c, key, codec, undefined),
          message: 'is required',
        })
      else check(key, codec, value)
    }
    for (const [key, codec] of Object.entries(optional)) {
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
