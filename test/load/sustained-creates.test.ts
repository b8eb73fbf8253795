import { expect } from 'chai'
import { requireMongo } from '../support/mongo.js'
import { runSustainedCreates } from './sustained-creates.js'

/**
 * The short version of the sustained multi-instance load (the full one is the CLI, see
 * docs/contributing.md). It asserts correctness only, and prints the figures: timings on a shared CI machine
 * are not a test.
 */
describe('sustained creates on three service processes sharing one database (short)', function () {
  this.timeout(120_000)

  it('answers every create 201, and stores each exactly once, readable under its id', async function () {
    const report = await runSustainedCreates({
      instances: 3,
      concurrency: 60,
      seconds: 5,
      seed: 2000,
      mongodbUri: requireMongo(this),
      // Generous, so that a slow CI machine does not turn queueing into 503s: correctness is
      // what this test checks.
      storeTimeoutMs: 10_000,
    })
    console.log(`      ${JSON.stringify(report)}`)
    expect(report.statuses).to.deep.equal({ 201: report.requests })
    expect(report.verdict).to.deep.equal({
      stored: 2000 + report.created,
      lost: 0,
      duplicates: 0,
      storedWithout201: 0,
      idsAnsweredTwice: 0,
    })
    expect(report.perInstance.every((n) => n > 0)).to.equal(true)
  })
})
