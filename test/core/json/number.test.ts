import { expect } from 'chai'
import fc from 'fast-check'
import { LosslessNumber } from 'lossless-json'
import { integerOf, parseJsonNumber } from '../../../core/json/number.js'

/** Writes n as JSON Schema would still call an integer: a mantissa with a point, an exponent. */
const spelled = (n: bigint, pointAt: number, extraZeros: number, upper: boolean): string => {
  const digits = (n < 0n ? -n : n).toString() + '0'.repeat(extraZeros)
  const split = Math.min(pointAt, digits.length - 1)
  const head = digits.slice(0, digits.length - split)
  const mantissa = split === 0 ? head : `${head}.${digits.slice(digits.length - split)}`
  const exponent = split - extraZeros
  return `${n < 0n ? '-' : ''}${mantissa}${upper ? 'E' : 'e'}${exponent}`
}

describe('JSON number literals', () => {
  it('converts integer-valued literals exactly, whatever their form', () => {
    const cases: Array<[string, bigint]> = [
      ['1', 1n],
      ['1.0', 1n],
      ['1e3', 1000n],
      ['1E2', 100n],
      ['1e+2', 100n],
      ['10e-1', 1n],
      ['1.50e1', 15n],
      ['0.0', 0n],
      ['-0', 0n],
      ['-2.0', -2n],
      ['9.223372036854775807e18', 9223372036854775807n],
      ['9223372036854775807.000', 9223372036854775807n],
      ['9223372036854775808', 9223372036854775808n],
    ]
    for (const [literal, value] of cases) expect(integerOf(literal), literal).to.equal(value)
  })

  it('leaves non-integers and absurdly large values unconverted', () => {
    for (const literal of ['1.5', '1e-3', '0.1', '9.2233720368547758075e18', '1e41', '1e999999999'])
      expect(integerOf(literal), literal).to.equal(undefined)
    expect(parseJsonNumber('1.5')).to.be.instanceOf(LosslessNumber)
    expect(parseJsonNumber('1e999999999')).to.be.instanceOf(LosslessNumber)
  })

  it('round-trips every integer through every spelling (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
        fc.nat(25),
        fc.nat(5),
        fc.boolean(),
        (n, pointAt, extraZeros, upper) => {
          expect(parseJsonNumber(spelled(n, pointAt, extraZeros, upper))).to.equal(n)
        },
      ),
    )
  })

  it('refuses every value with a non-zero fraction (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 64n }),
        fc.integer({ min: 1, max: 9 }),
        (n, d) => {
          expect(integerOf(`${n}.${d}`)).to.equal(undefined)
          expect(integerOf(`${n}${d}e-1`)).to.equal(undefined)
        },
      ),
    )
  })
})
