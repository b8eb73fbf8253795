import { readdirSync, readFileSync } from 'node:fs'
import { expect } from 'chai'
import { LIMIT_DEFAULT, LIMIT_MAX, NAME_MAX_LENGTH } from '../../bench/peers/store.mjs'
import { LIST_LIMITS, PET_NAME_MAX_LENGTH } from '../../core/index.js'

const peers = readdirSync('bench/peers')
  .filter((file) => file.endsWith('.mjs') && file !== 'store.mjs')
  .map((file) => [file, readFileSync(`bench/peers/${file}`, 'utf8')] as const)

describe("the benchmark's peers", () => {
  it("check the service's page sizes and longest name", () => {
    expect({ LIMIT_DEFAULT, LIMIT_MAX, NAME_MAX_LENGTH }).to.deep.equal({
      LIMIT_DEFAULT: LIST_LIMITS.default,
      LIMIT_MAX: LIST_LIMITS.max,
      NAME_MAX_LENGTH: PET_NAME_MAX_LENGTH,
    })
  })

  it('take them from store.mjs, restating none', () => {
    const listing = peers.filter(([, source]) => /\blimit\b/.test(source))
    expect(listing.map(([file]) => file)).to.include.members(['ceiling.mjs', 'fastify.mjs'])
    for (const [file, source] of listing) {
      expect(source, file).to.match(/\bLIMIT_DEFAULT\b[^]*\bLIMIT_MAX\b/)
      expect(source, file).not.to.match(/\blimit\s*(?:>=?|=)\s*\d|maxLength:\s*\d/)
    }
  })
})
