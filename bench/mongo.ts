/** The FerretDB test server for --mongodb, and a fast bulk path to store many pets. */
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { MongoClient } from 'mongodb'
import { toDocument, type PetDocument } from '../adapters/mongodb/documents.js'
import { COUNTERS, PETS } from '../adapters/mongodb/index.js'
import type { NewPet } from '../core/index.js'

export type Ferret = { readonly uri: string; readonly stop: () => void }

export const startFerret = (): Ferret => {
  const out = execFileSync('test/ferretdb/start.sh', { encoding: 'utf8' })
  const value = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(out)?.[1]
  const uri = value('MONGODB_URI')
  const pid = value('FERRETDB_PID')
  const data = value('FERRETDB_DATA')
  if (uri === undefined || pid === undefined || data === undefined)
    throw new Error(`unexpected start.sh output: ${out}`)
  const stop = () => {
    execFileSync('test/ferretdb/stop.sh', [pid], { stdio: 'inherit' })
    // A fresh temporary directory per run; with --large it holds some 50 MB.
    rmSync(data, { recursive: true, force: true })
  }
  return { uri, stop }
}

/** `mongodb://host:port/` with a database of its own. */
export const databaseUri = (uri: string, database: string): string =>
  `${uri.replace(/\/$/, '')}/${database}`

const STATUSES = ['available', 'pending', 'sold', undefined] as const
const BATCH = 1000

/**
 * Stores pets `from`..`to` as the adapter would (documents from its own toDocument), in
 * parallel batches, then raises the id counter past them so that later creates do not collide.
 */
export const bulkInsertPets = async (uri: string, from: number, to: number): Promise<void> => {
  const client = new MongoClient(uri, { useBigInt64: true })
  try {
    const db = client.db()
    const pets = db.collection<PetDocument>(PETS)
    const batches: Array<() => Promise<unknown>> = []
    for (let start = from; start <= to; start += BATCH) {
      const docs = Array.from({ length: Math.min(BATCH, to - start + 1) }, (_, i) => {
        const id = start + i
        const status = STATUSES[id % STATUSES.length]
        const pet = {
          name: `Pet ${id}`,
          categoryId: 9223372036854775807n,
          ...(status ? { status } : {}),
        }
        return toDocument(pet as NewPet, BigInt(id), 'bench-seed')
      })
      batches.push(() => pets.insertMany(docs, { ordered: false }))
    }
    const workers = Array.from({ length: 4 }, async () => {
      for (let next = batches.shift(); next !== undefined; next = batches.shift()) await next()
    })
    await Promise.all(workers)
    await db
      .collection<{ _id: string; seq: bigint }>(COUNTERS)
      .updateOne({ _id: 'pets' }, { $max: { seq: BigInt(to) } }, { upsert: true })
  } finally {
    await client.close()
  }
}
