import { expect } from 'chai'
import fc from 'fast-check'
import { createExpiryQueue } from '../../../adapters/in-memory/expiry-queue.js'

type Entry = { readonly at: number; slot: number }

const step = fc.oneof(
  fc.record({ push: fc.integer({ min: 0, max: 50 }) }),
  fc.record({ remove: fc.nat() }),
  fc.record({ take: fc.integer({ min: 0, max: 50 }) }),
)

describe('in-memory expiry queue', () => {
  it('holds exactly what was pushed and not removed or taken, and gives the earliest first (property)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const queue = createExpiryQueue<Entry>((e) => e.at)
        const held: Entry[] = []
        for (const s of steps) {
          if ('push' in s) {
            const entry = { at: s.push, slot: -1 }
            queue.push(entry)
            held.push(entry)
          } else if ('remove' in s && held.length > 0) {
            const [entry] = held.splice(s.remove % held.length, 1)
            queue.remove(entry!)
            queue.remove(entry!) // a second time is nothing
          } else if ('take' in s) {
            const earliest = Math.min(...held.map((e) => e.at))
            const taken = queue.takeExpired(s.take)
            if (earliest > s.take) expect(taken).to.equal(undefined)
            else {
              expect(taken?.at).to.equal(earliest)
              held.splice(held.indexOf(taken!), 1)
            }
          }
          expect(queue.size()).to.equal(held.length)
        }
      }),
      { numRuns: 300 },
    )
  })
})
