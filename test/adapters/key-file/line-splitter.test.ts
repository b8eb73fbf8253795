import { expect } from 'chai'
import fc from 'fast-check'
import { createLineSplitter } from '../../../adapters/key-file/line-splitter.js'

describe('key file: the line splitter', () => {
  it('gives the lines of the whole text, however it is cut into chunks (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\n', 'é'), maxLength: 60 })
    fc.assert(
      fc.property(text, fc.array(fc.nat({ max: 60 })), (whole, cuts) => {
        const lines: string[] = []
        const splitter = createLineSplitter((line) => lines.push(line))
        const at = [...new Set([0, ...cuts.map((c) => c % (whole.length + 1)), whole.length])]
        at.sort((a, b) => a - b)
        for (let i = 1; i < at.length; i++) splitter.push(whole.slice(at[i - 1], at[i]))
        splitter.end()
        expect(lines).to.deep.equal(whole.split('\n'))
      }),
      { numRuns: 500 },
    )
  })
})
