import { expect } from 'chai'
import { MongoNetworkError, MongoServerError, type Collection, type Document } from 'mongodb'
import { ensureIndex, retryDropped } from '../../../adapters/mongodb/index-build.js'

const spec = { key: { _idem: 1 }, name: '_idem_1', unique: true, sparse: true } as const

/** A collection whose createIndexes fails with `error` after `sibling` built the index. */
const racedCollection = (error: Error, siblingBuilt: boolean) => {
  const calls: string[] = []
  const collection = {
    createIndexes: async () => {
      calls.push('createIndexes')
      throw error
    },
    listIndexes: () => ({
      toArray: async () => {
        calls.push('listIndexes')
        return siblingBuilt ? [{ name: '_id_' }, { name: '_idem_1' }] : [{ name: '_id_' }]
      },
    }),
  } as unknown as Collection<Document>
  return { collection, calls }
}

/** The error a promise is rejected with; fails when it resolves. */
const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

const serverError = (code: number, codeName: string) =>
  new MongoServerError({ ok: 0, code, codeName, errmsg: codeName })

describe('MongoDB adapter: index creation at start', () => {
  it('sends no createIndexes for an index that exists', async () => {
    const { collection, calls } = racedCollection(new Error('never'), true)
    await ensureIndex(collection, spec, new Set(['_idem_1']))
    expect(calls).to.deep.equal([])
  })

  for (const [code, codeName] of [
    [85, 'IndexOptionsConflict'],
    [86, 'IndexKeySpecsConflict'],
    [68, 'IndexAlreadyExists'],
    [11000, 'DuplicateKey'],
  ] as const)
    it(`takes ${codeName} as success when a sibling built the index meanwhile`, async () => {
      const { collection, calls } = racedCollection(serverError(code, codeName), true)
      await ensureIndex(collection, spec, new Set())
      expect(calls).to.deep.equal(['createIndexes', 'listIndexes'])
    })

  it('fails on a conflict when the index is still missing, and on any other refusal', async () => {
    const conflict = racedCollection(serverError(85, 'IndexOptionsConflict'), false)
    expect(await rejection(ensureIndex(conflict.collection, spec, new Set()))).to.be.instanceOf(
      MongoServerError,
    )
    const refused = racedCollection(serverError(67, 'CannotCreateIndex'), true)
    expect(String(await rejection(ensureIndex(refused.collection, spec, new Set())))).to.include(
      'CannotCreateIndex',
    )
    expect(refused.calls).to.deep.equal(['createIndexes'])
  })

  it('retries a dropped connection with a short back-off, then succeeds', async () => {
    let calls = 0
    const retried: unknown[] = []
    const result = await retryDropped(
      async () => {
        if (++calls < 3) throw new MongoNetworkError('connection 1 to 127.0.0.1 closed')
        return 'built'
      },
      { deadline: Date.now() + 10_000, onRetry: (error) => retried.push(error) },
    )
    expect(result).to.equal('built')
    expect(calls).to.equal(3)
    expect(retried).to.have.length(2)
  })

  it('gives up after the bounded attempts, and never retries a refusal', async () => {
    let dropped = 0
    expect(
      await rejection(
        retryDropped(
          async () => {
            dropped++
            throw new MongoNetworkError('closed')
          },
          { deadline: Date.now() + 60_000, attempts: 3 },
        ),
      ),
    ).to.be.instanceOf(MongoNetworkError)
    expect(dropped).to.equal(3)
    let refused = 0
    expect(
      await rejection(
        retryDropped(
          async () => {
            refused++
            throw serverError(67, 'CannotCreateIndex')
          },
          { deadline: Date.now() + 60_000 },
        ),
      ),
    ).to.be.instanceOf(MongoServerError)
    expect(refused).to.equal(1)
  })

  it('stops retrying at the start-up deadline', async () => {
    let calls = 0
    expect(
      await rejection(
        retryDropped(
          async () => {
            calls++
            throw new MongoNetworkError('closed')
          },
          { deadline: Date.now() + 50 },
        ),
      ),
    ).to.be.instanceOf(MongoNetworkError)
    expect(calls).to.equal(1)
  })
})
