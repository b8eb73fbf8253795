import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import type { Db } from 'mongodb'

/**
 * Runs `body` on `uri`, or on a FerretDB test server started for it and stopped by its pid
 * (then given to `body`, which can account its CPU).
 */
export const withDatabaseServer = async <A>(
  uri: string | undefined,
  body: (uri: string, pid?: number) => Promise<A>,
): Promise<A> => {
  if (uri !== undefined) return body(uri)
  const out = execFileSync('test/ferretdb/start.sh', { encoding: 'utf8' })
  const started = /MONGODB_URI=(\S+)/.exec(out)?.[1]
  const pid = /FERRETDB_PID=(\d+)/.exec(out)?.[1]
  const data = /FERRETDB_DATA=(\S+)/.exec(out)?.[1]
  if (started === undefined || pid === undefined) throw new Error(`FerretDB did not start: ${out}`)
  try {
    return await body(started, Number(pid))
  } finally {
    execFileSync('test/ferretdb/stop.sh', [pid], { stdio: 'ignore' })
    // The fresh data directory start.sh made for this server, and nothing else.
    if (data !== undefined) rmSync(data, { recursive: true, force: true })
  }
}

/**
 * Stores pets 1..count as the service stores them (adapters/mongodb/documents.ts), in batches,
 * and leaves the id counter where the service would have: the database looks as if they had
 * been created through the API.
 */
export const seedPets = async (db: Db, count: number): Promise<void> => {
  const pets = db.collection<{ _id: bigint }>('pets')
  for (let from = 1; from <= count; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - from + 1) }, (_, i) => ({
      _id: BigInt(from + i),
      name: `seed ${from + i}`,
      categoryId: BigInt(1 + ((from + i) % 7)),
      status: ['available', 'pending', 'sold'][(from + i) % 3] as string,
      _op: 'seed',
    }))
    await pets.insertMany(batch, { ordered: false })
  }
  await db
    .collection<{ _id: string; seq: bigint }>('counters')
    .updateOne({ _id: 'pets' }, { $set: { seq: BigInt(count) } }, { upsert: true })
}
