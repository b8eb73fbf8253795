import { expect } from 'chai'
import fc from 'fast-check'
import { MAX_DEPTH, scanJson } from '../../../core/json/scan.js'

const duplicateKeyOf = (text: string): string | undefined => scanJson(text).duplicateKey

describe('scanning a JSON text', () => {
  it('finds no repeated key in any JSON that JSON.stringify writes', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => duplicateKeyOf(JSON.stringify(v)) === undefined))
  })

  it('finds a key repeated in any one object, escaped or nested, whatever the values', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.string(),
        fc.jsonValue(),
        (o, k, v) => {
          const text = JSON.stringify({ ...o, [k]: v }).replace(
            /}$/,
            () => `,${JSON.stringify(k)}:${JSON.stringify(v)}}`,
          )
          return duplicateKeyOf(`[{"a":{"b":${text}}}]`) === k
        },
      ),
    )
    expect(duplicateKeyOf('{"a":1,"\\u0061":1}')).to.equal('a')
    expect(duplicateKeyOf('{"a":"}","b":{"a":1},"c":["a","a"]}')).to.equal(undefined)
  })

  it('calls the numbers exact as doubles only when each is a plain integer of at most 15 digits', () => {
    for (const exact of ['0', '-0', '7', '-999999999999999', '[1,{"a":[2,-3]}]', '"1.5e400"'])
      expect(scanJson(exact).exactAsDoubles, exact).to.equal(true)
    for (const inexact of [
      '1000000000000000', // 16 digits: 2^53 + 1 is among them
      '9007199254740993',
      '1.0',
      '1e3',
      '1E3',
      '-0.5',
      '[1,2.5]',
      '{"a":{"b":[1e-3]}}',
    ])
      expect(scanJson(inexact).exactAsDoubles, inexact).to.equal(false)
  })

  it('sends a document nested deeper than MAX_DEPTH to the exact path', () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
    expect(scanJson(nested(MAX_DEPTH)).exactAsDoubles).to.equal(true)
    expect(scanJson(nested(MAX_DEPTH + 1)).exactAsDoubles).to.equal(false)
  })
})
