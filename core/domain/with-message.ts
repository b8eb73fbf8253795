import * as t from 'io-ts'

/** The same codec, with one plain-language message in place of io-ts's default. */
export const withMessage = <C extends t.Mixed>(codec: C, message: string): C =>
  new t.Type(
    codec.name,
    codec.is,
    (u, c) => {
      const result = codec.validate(u, c)
      return result._tag === 'Left' ? t.failure(u, c, message) : result
    },
    codec.encode,
  ) as unknown as C
