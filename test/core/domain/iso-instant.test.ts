import { expect } from 'chai'
import fc from 'fast-check'
import { parseIsoInstant } from '../../../core/index.js'

describe('parsing an ISO 8601 instant', () => {
  it('reads back any instant from 1970 to 9999 as toISOString writes it (property)', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date(0),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (date) => {
          expect(parseIsoInstant(date.toISOString())?.getTime()).to.equal(date.getTime())
        },
      ),
    )
  })

  it('is undefined for a date that does not exist, whatever the month and year', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 2400 }), fc.integer({ min: 1, max: 12 }), (y, m) => {
        const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate()
        const at = (day: number) =>
          `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}T00:00:00Z`
        expect(parseIsoInstant(at(daysInMonth))).to.not.equal(undefined)
        if (daysInMonth < 31) expect(parseIsoInstant(at(daysInMonth + 1))).to.equal(undefined)
      }),
    )
  })
})
