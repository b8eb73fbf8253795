import { expect } from 'chai'
import fc from 'fast-check'
import { firstDuplicateKey } from '../../../adapters/koa/duplicate-keys.js'

describe('duplicate JSON keys', () => {
  it('finds none in any JSON that JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => firstDuplicateKey(JSON.stringify(v)) === undefined),
    )
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
          return firstDuplicateKey(`[{"a":{"b":${text}}}]`) === k
        },
      ),
    )
    expect(firstDuplicateKey('{"a":1,"\\u0061":1}')).to.equal('a')
    expect(firstDuplicateKey('{"a":"}","b":{"a":1},"c":["a","a"]}')).to.equal(undefined)
  })
})
