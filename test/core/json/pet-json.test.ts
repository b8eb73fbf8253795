import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { isLosslessNumber, type LosslessNumber } from 'lossless-json'
import {
  INT64_MAX,
  readJson,
  readNewPetJson,
  readPetJson,
  writeNewPetJson,
  writePetJson,
  type NewPet,
  type Pet,
} from '../../../core/index.js'
import { newPet, pet } from '../../../adapters/testing/arbitraries.js'

const problemsOf = <A>(result: E.Either<{ problems: ReadonlyArray<string> }, A>): string =>
  E.isLeft(result) ? result.left.problems.join('; ') : 'accepted'

/** The exported JSON writer and reader, for embedders: int64 values as exact JSON numbers. */
describe('Pet and NewPet JSON (exported)', () => {
  it('reads back every pet it writes, ids at the int64 bounds included, and writes it again the same', () => {
    fc.assert(
      fc.property(pet(), (p) => {
        const text = writePetJson(p)
        const read = readPetJson(text)
        expect(read).to.deep.equal(E.right(p))
        expect(writePetJson((read as E.Right<Pet>).right)).to.equal(text)
      }),
      { numRuns: 500 },
    )
  })

  it('reads back every new pet it writes', () => {
    fc.assert(
      fc.property(newPet(), (n) => {
        expect(readNewPetJson(writeNewPetJson(n))).to.deep.equal(E.right(n))
      }),
      { numRuns: 500 },
    )
  })

  it('writes ids as JSON numbers, digit for digit, as the service does', () => {
    for (const id of [1n, 2n ** 53n + 1n, INT64_MAX]) {
      const text = writePetJson({ id, name: 'Rex', categoryId: INT64_MAX, status: 'sold' })
      expect(text).to.equal(
        `{"id":${id},"name":"Rex","categoryId":9223372036854775807,"status":"sold"}`,
      )
      expect(typeof (JSON.parse(text) as { id: unknown }).id).to.equal('number')
    }
  })

  it('leaves an id out of a new pet, and an absent status out of both', () => {
    const asNew = { id: 5n, name: 'Rex', categoryId: 1n } as unknown as NewPet
    expect(writeNewPetJson(asNew)).to.equal('{"name":"Rex","categoryId":1}')
  })

  it('refuses just past the bounds, a fraction, a string id and a repeated key, naming the fault', () => {
    const base = '"name":"Rex","categoryId":1'
    expect(problemsOf(readPetJson(`{"id":${INT64_MAX + 1n},${base}}`))).to.match(/^id must be/)
    expect(problemsOf(readPetJson(`{"id":0,${base}}`))).to.match(/^id must be/)
    expect(problemsOf(readPetJson(`{"id":1.5,${base}}`))).to.match(/^id must be/)
    expect(problemsOf(readPetJson(`{"id":"7",${base}}`))).to.match(/^id must be/)
    expect(problemsOf(readPetJson(`{"id":7,${base},"id":8}`))).to.match(/repeats the key "id"/)
    expect(problemsOf(readNewPetJson(`{"id":7,${base}}`))).to.match(/^id is not a known field/)
    expect(problemsOf(readJson('{"id":'))).to.match(/^the text is not valid JSON/)
  })

  it('reads integers beyond 2^53 exactly, never through a float', () => {
    expect(readJson('[9007199254740993, 1e3, -0]')).to.deep.equal(
      E.right([2n ** 53n + 1n, 1000n, 0n]),
    )
  })

  it('gives a number that is not an integer as a LosslessNumber, its literal kept exactly', () => {
    const read = readJson('[1.5, 0.1000000000000000055511151231257827, 2.50e1]')
    if (E.isLeft(read)) throw new Error(read.left.problems.join('; '))
    const [half, long, integer] = read.right as [LosslessNumber, LosslessNumber, unknown]
    expect([half, long].map((n) => [isLosslessNumber(n), n.toString()])).to.deep.equal([
      [true, '1.5'],
      [true, '0.1000000000000000055511151231257827'],
    ])
    expect(integer).to.equal(25n)
  })
})
