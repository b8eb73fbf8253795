import { expect } from 'chai'
import fc from 'fast-check'
import { propagatorOf } from '../../apps/server/tracing/propagators.js'
import { PROPAGATORS } from '../../apps/server/tracing/settings.js'
import { hasAnyHeaderOf } from '../../apps/server/tracing/request-spans.js'

/** The headers a propagator names: of the default one, and of each OTEL_PROPAGATORS names. */
const fieldsOf = async (names?: string): Promise<string[]> =>
  (await propagatorOf(names === undefined ? {} : { OTEL_PROPAGATORS: names }))?.fields() ?? []

describe("tracing: the look for a caller's headers before a propagator's extract", () => {
  it("finds a header exactly when one of the names given is there, in any order (the default's read by name)", async () => {
    const byDefault = await fieldsOf()
    const every = [
      ...new Set([
        ...(await Promise.all(PROPAGATORS.map(fieldsOf))).flat(),
        'host',
        'authorization',
      ]),
    ]
    const fields = fc.oneof(
      fc.shuffledSubarray(byDefault, { minLength: byDefault.length }),
      fc.uniqueArray(fc.constantFrom(...every), { maxLength: 4 }),
    )
    const headers = fc.dictionary(fc.constantFrom(...every), fc.string({ maxLength: 8 }))
    fc.assert(
      fc.property(fields, headers, (names, given) => {
        const expected = names.some((name) => Object.hasOwn(given, name))
        expect(hasAnyHeaderOf(names)(given)).to.equal(expected)
      }),
      { numRuns: 500 },
    )
  })
})
