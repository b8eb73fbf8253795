import { expect } from 'chai'
import {
  type BulkWriteResult,
  MongoBulkWriteError,
  MongoNetworkTimeoutError,
  type WriteError,
} from 'mongodb'
import { insertOutcomes } from '../../../adapters/mongodb/insert-outcomes.js'

/** A reply as the driver reports it: write errors for some documents, maybe a write concern error. */
const bulkError = (
  writeErrors: ReadonlyArray<{ index: number; code: number }>,
  concern?: { code: number; errmsg: string },
) => {
  const result = {
    getWriteConcernError: () => concern,
  } as unknown as BulkWriteResult
  // The fields of the driver's WriteError that the outcomes read.
  const errors = writeErrors.map(
    (e) => ({ ...e, errmsg: `code ${e.code}` }) as unknown as WriteError,
  )
  return new MongoBulkWriteError(
    { message: 'write failed', code: errors[0]?.code ?? 64, writeErrors: errors },
    result,
  )
}
const summary = (count: number, error: unknown) => insertOutcomes(count, error).map((o) => o.kind)

describe('MongoDB adapter: what each document of a grouped insert came to', () => {
  it('stores every document of an insert that succeeded', () => {
    expect(summary(3, undefined)).to.deep.equal(['stored', 'stored', 'stored'])
  })

  it('tells the documents whose id is taken from those stored, by their index in the insert', () => {
    const error = bulkError([
      { index: 0, code: 11000 },
      { index: 2, code: 11000 },
    ])
    expect(summary(4, error)).to.deep.equal(['taken', 'stored', 'taken', 'stored'])
  })

  it('never calls a document stored when majority was not confirmed', () => {
    const error = bulkError([{ index: 1, code: 11000 }], { code: 64, errmsg: 'waiting' })
    expect(summary(3, error)).to.deep.equal(['failed', 'taken', 'failed'])
  })

  it('leaves every outcome failed, never taken, when the reply says nothing per document', () => {
    for (const error of [
      new MongoNetworkTimeoutError('timed out'),
      bulkError([], { code: 64, errmsg: 'waiting' }),
      Object.assign(new Error('duplicate key on the command'), { code: 11000 }),
    ])
      expect(summary(2, error)).to.deep.equal(['failed', 'failed'])
  })
})
