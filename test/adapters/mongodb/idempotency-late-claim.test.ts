import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { Collection, Db } from 'mongodb'
import { createMongoIdempotencyStore, IDEMPOTENCY_KEYS } from '../../../adapters/mongodb/index.js'
import type { IdempotencyKey } from '../../../core/index.js'
import {
  closeSharedClient,
  freshDatabaseName,
  requireMongo,
  sharedClient,
} from '../../support/mongo.js'

const BUDGET_MS = 100
const INSERT_DELAY_MS = 600

/** The database, with every insertOne held back: a claim lands after its call was refused. */
const slowInserts = (db: Db, landed: Array<Promise<unknown>>): Db =>
  ({
    collection: (name: string) =>
      new Proxy(db.collection(name), {
        get: (target: Collection, property) => {
          const value = Reflect.get(target, property) as unknown
          if (property !== 'insertOne')
            return typeof value === 'function' ? value.bind(target) : value
          return (...args: Parameters<Collection['insertOne']>) => {
            const done = sleep(INSERT_DELAY_MS).then(() => target.insertOne(...args))
            landed.push(done.catch(() => undefined))
            return done
          }
        },
      }),
  }) as unknown as Db

describe('MongoDB idempotency store: a claim that lands after its deadline', function () {
  this.timeout(20_000)
  after(() => closeSharedClient())

  it('is answered StoreUnavailable and leaves no record once it lands', async function () {
    const client = await sharedClient(requireMongo(this))
    const db = client.db(freshDatabaseName())
    try {
      const landed: Array<Promise<unknown>> = []
      const store = createMongoIdempotencyStore(slowInserts(db, landed), { timeoutMs: BUDGET_MS })
      const now = Date.now()
      const scope = { keyId: 'k', key: 'late' as IdempotencyKey }
      const claim = { fingerprint: 'fp', leaseUntil: now + 1000, expiresAt: now + 600_000 }
      const result = await store.claimKey(scope, claim, now)()
      expect(E.isLeft(result) && result.left._tag).to.equal('StoreUnavailable')
      await Promise.all(landed)
      await sleep(300) // the delete that follows the late insert
      expect(await db.collection(IDEMPOTENCY_KEYS).countDocuments({})).to.equal(0)
    } finally {
      await db.dropDatabase()
    }
  })
})
