import {
  MongoNetworkError,
  MongoServerSelectionError,
  type Collection,
  type Document,
} from 'mongodb'

/** One index as this service declares it; `name` is how a restart recognises it. */
export type IndexSpec = {
  readonly key: Readonly<Record<string, 1 | -1>>
  readonly name: string
  readonly unique?: boolean
  readonly sparse?: boolean
  readonly expireAfterSeconds?: number
}

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code

/** listIndexes of a collection not created yet. */
const NAMESPACE_NOT_FOUND = 26
/**
 * What a createIndexes answers when a sibling instance built the same index a moment before:
 * IndexAlreadyExists, NamespaceExists, IndexOptionsConflict, IndexKeySpecsConflict, and a
 * duplicate key from the server's own index catalogue. Each is taken as success only once
 * listIndexes shows the index under our name; a real conflict (another index on these fields)
 * still fails the start.
 */
const LOST_RACE = new Set([68, 48, 85, 86, 11000])

/** The names of a collection's indexes; none when the collection does not exist yet. */
export const indexNames = async (collection: Collection<Document>): Promise<Set<string>> => {
  try {
    const indexes = await collection.listIndexes().toArray()
    return new Set(indexes.map((index) => String(index.name)))
  } catch (error) {
    if (codeOf(error) === NAMESPACE_NOT_FOUND) return new Set()
    throw error
  }
}

/**
 * Creates `spec` unless an index of that name exists: asked first, so that a restart or a
 * sibling's start sends no createIndexes at all once the index is there. Every instance runs
 * this at start, so two may build at once; the loser's error is success when the index exists.
 * One index per createIndexes: FerretDB v1 panics and drops the connection when a call naming
 * several indexes races another (20 of 30 starts of three instances at once failed that way;
 * none with one index per call).
 */
export const ensureIndex = async (
  collection: Collection<Document>,
  spec: IndexSpec,
  existing: ReadonlySet<string>,
): Promise<void> => {
  if (existing.has(spec.name)) return
  try {
    await collection.createIndexes([{ ...spec, key: { ...spec.key } }])
  } catch (error) {
    if (!LOST_RACE.has(codeOf(error) as number)) throw error
    if (!(await indexNames(collection)).has(spec.name)) throw error
  }
}

/** A connection lost or the server out of reach: worth another try at start-up. */
const isDropped = (error: unknown): boolean =>
  error instanceof MongoNetworkError || error instanceof MongoServerSelectionError

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Runs `step` again when the connection drops, at most `attempts` times in all, waiting 100,
 * 200, 400… ms (plus jitter, so that instances started together do not retry together) and never
 * past `deadline` (epoch ms). Only a dropped connection is retried: a refusal is final. FerretDB
 * v1 closes the connection when several instances create indexes at once; MongoDB may drop one
 * on a failover. The step must be idempotent (index creation here is).
 */
export const retryDropped = async <A>(
  step: () => Promise<A>,
  options: {
    readonly deadline: number
    readonly attempts?: number
    readonly onRetry?: (error: unknown) => void
  },
): Promise<A> => {
  const attempts = options.attempts ?? 6
  for (let attempt = 1; ; attempt++) {
    try {
      return await step()
    } catch (error) {
      const wait = 100 * 2 ** (attempt - 1) + Math.floor(Math.random() * 100)
      if (!isDropped(error) || attempt >= attempts || Date.now() + wait > options.deadline)
        throw error
      options.onRetry?.(error)
      await sleep(wait)
    }
  }
}
