import { expect } from 'chai'
import { HARD_BOUND_FACTOR } from '../../adapters/mongodb/deadline.js'
import { apiOptionsOf, LEASE_IN_STORE_TIMEOUTS } from '../../apps/server/api-options.js'
import { GET_PET_DEPRECATION, LIST_LIMITS, writeNewPetJson } from '../../core/index.js'
import { testConfig } from '../support/app.js'
import { largestPet, longestName } from '../support/largest-answer.js'

describe('The settings the service gives its app', () => {
  it('hold a keyed create longer than a MongoDB store call can last', () => {
    expect(LEASE_IN_STORE_TIMEOUTS).to.be.above(HARD_BOUND_FACTOR)
    const options = apiOptionsOf(testConfig({ STORE_TIMEOUT_MS: '1500' }))
    expect(options.idempotencyPolicy.leaseMs).to.equal(LEASE_IN_STORE_TIMEOUTS * 1500)
    expect(options.idempotencyPolicy.leaseMs).to.be.above(HARD_BOUND_FACTOR * 1500)
  })

  it("take the interface's sunset and page sizes, and the configured deprecation", () => {
    const options = apiOptionsOf(testConfig({ GET_PET_DEPRECATED_AT: '2026-06-01T00:00:00Z' }))
    expect(options.deprecation).to.deep.equal({
      deprecatedAt: new Date('2026-06-01T00:00:00Z'),
      sunsetAt: GET_PET_DEPRECATION.sunsetAt,
    })
    expect(options.listLimits).to.deep.equal(LIST_LIMITS)
  })

  it('take a body limit with room for the largest NewPet, its name sent as JSON escapes', () => {
    // Every UTF-16 unit as \uXXXX: the longest way JSON can spell the name.
    const escaped = Array.from(
      { length: longestName.length },
      (_, i) => `\\u${longestName.charCodeAt(i).toString(16).padStart(4, '0')}`,
    ).join('')
    const body = writeNewPetJson(largestPet).replace(JSON.stringify(longestName), `"${escaped}"`)
    expect(body).to.include(escaped).and.not.include('"id"')
    expect(JSON.parse(body)).to.deep.include({ name: longestName })
    expect(Buffer.byteLength(body)).to.be.at.most(apiOptionsOf(testConfig()).maxBodyBytes)
  })
})
