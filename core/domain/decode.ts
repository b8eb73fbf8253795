import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { invalidInput, type InvalidInput } from './errors.js'

/** "categoryId must be ...": the path of the offending value, then the rule it broke. */
const describe = (root: string, error: t.ValidationError): string => {
  const path = error.context
    .slice(1)
    // An empty name (`?=1`, `{"": 1}`) is shown as "", not left out.
    .map((entry) => (entry.key === '' ? '""' : entry.key))
    .join('.')
  return `${path === '' ? root : path} ${error.message ?? `must be a valid ${error.context.at(-1)?.type.name}`}`
}

/** Decodes untrusted input, turning every failure into one InvalidInput naming each field. */
export const decodeWith =
  <A>(codec: t.Decoder<unknown, A>, root: string) =>
  (u: unknown): E.Either<InvalidInput, A> => {
    const result = codec.decode(u)
    return E.isRight(result)
      ? result
      : E.left(invalidInput(result.left.map((e) => describe(root, e))))
  }
