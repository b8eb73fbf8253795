import { expect } from 'chai'
import fc from 'fast-check'
import { parse } from 'lossless-json'
import { parseExactly } from '../../../core/json/exact.js'
import { parseJsonNumber } from '../../../core/json/number.js'

/** The reference: lossless-json with integers as bigints, the path every body took before. */
const lossless = (text: string): unknown => parse(text, null, parseJsonNumber)

/** JSON texts with numbers spelled every way JSON allows, not only as JSON.stringify writes them. */
const number = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom('1.0', '-0', '1e3', '1E+3', '12.50e-1', '9007199254740993', '1e400'),
)
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    number,
    fc.string().map((s) => JSON.stringify(s)),
    fc.constantFrom('true', 'false', 'null'),
    fc.array(tie('value')).map((items) => `[${items.join(',')}]`),
    fc
      .uniqueArray(fc.tuple(fc.oneof(fc.string(), fc.constant('__proto__')), tie('value')), {
        selector: ([k]) => k,
      })
      .map((fields) => `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value

describe('parsing a JSON body exactly', () => {
  it('gives what lossless-json gives, for any JSON text', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(parseExactly(text).value).to.deep.equal(lossless(text))
      }),
      { numRuns: 500 },
    )
  })

  it('keeps integers exact on either path, as bigints', () => {
    expect(parseExactly('{"categoryId":7}').value).to.deep.equal({ categoryId: 7n })
    expect(parseExactly('{"categoryId":9007199254740993}').value).to.deep.equal({
      categoryId: 9007199254740993n,
    })
    expect(parseExactly('[-999999999999999, 1e2]').value).to.deep.equal([-999999999999999n, 100n])
  })

  it('keeps a "__proto__" key as an own key, never as the prototype', () => {
    const { value } = parseExactly('{"__proto__":{"polluted":1},"n":1}')
    expect(Object.getPrototypeOf(value)).to.equal(Object.prototype)
    expect(Object.keys(value as object)).to.deep.equal(['__proto__', 'n'])
    expect((value as { polluted?: unknown }).polluted).to.equal(undefined)
  })

  it('reports the first repeated key, and lossless-json names the fault of a text that is not JSON', () => {
    expect(parseExactly('{"a":1,"b":2,"a":1}').duplicateKey).to.equal('a')
    expect(parseExactly('{"a":1.5,"a":2}').duplicateKey).to.equal('a')
    expect(() => parseExactly('{"a":}')).to.throw(SyntaxError, /position/)
  })
})
