import * as E from 'fp-ts/lib/Either.js'
import { decodeWith } from '../domain/decode.js'
import { invalidInput, type InvalidInput } from '../domain/errors.js'
import { NewPet } from '../domain/new-pet.js'
import { Pet } from '../domain/pet.js'
import { parseExactly } from './exact.js'

/**
 * The value of a JSON text with every integer an exact `bigint`, any other number a
 * lossless-json `LosslessNumber` holding its literal (which the codecs refuse, never round), or
 * why it is not JSON: a syntax error, or a key repeated in one object (which `JSON.parse` would
 * silently resolve to the last).
 */
export const readJson = (text: string): E.Either<InvalidInput, unknown> => {
  try {
    const { value, duplicateKey } = parseExactly(text)
    return duplicateKey === undefined
      ? E.right(value)
      : E.left(invalidInput([`the JSON repeats the key ${JSON.stringify(duplicateKey)}`]))
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it is nested too deeply'
    return E.left(invalidInput([`the text is not valid JSON: ${reason}`]))
  }
}

const readWith =
  <A>(decode: (u: unknown) => E.Either<InvalidInput, A>) =>
  (text: string): E.Either<InvalidInput, A> =>
    E.chain(decode)(readJson(text))

/** A Pet from its JSON (as the service writes it), checked by the Pet codec: ids exact. */
export const readPetJson = readWith(decodeWith(Pet, 'pet'))
/** A NewPet from its JSON, checked as the service checks a create's body. */
export const readNewPetJson = readWith(decodeWith(NewPet, 'pet'))
