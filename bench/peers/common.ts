import * as E from 'fp-ts/lib/Either.js'
import { createInMemoryApiKeys, createInMemoryPetStore } from '../../adapters/in-memory/index.js'
import { connectMongo } from '../../adapters/mongodb/index.js'
import { loadConfig, type Config } from '../../apps/server/config.js'
import type { ApiKeys, ListPetsQuery, PetStore } from '../../core/index.js'

export type Peer = {
  readonly config: Config
  readonly store: PetStore
  readonly apiKeys: ApiKeys
  readonly close: () => Promise<void>
}

/**
 * What both peers share with the service: its own configuration decoder (so PORT, API_KEYS and
 * MONGODB_URI mean the same), the same in-memory key check and the same store adapters, so a
 * difference in the figures is the HTTP layer's, not the store's.
 */
export const openPeer = async (): Promise<Peer> => {
  const loaded = loadConfig(process.env)
  if (E.isLeft(loaded)) throw new Error(loaded.left.join('\n'))
  const config = loaded.right
  if (config.apiKeys.length === 0) throw new Error('API_KEYS is required')
  const storage =
    config.mongodbUri === undefined
      ? { store: createInMemoryPetStore(), close: async () => {} }
      : await connectMongo({
          uri: config.mongodbUri,
          timeoutMs: config.storeTimeoutMs,
          startupTimeoutMs: config.startupTimeoutMs,
        })
  return { config, ...storage, apiKeys: createInMemoryApiKeys(config.apiKeys) }
}

/** The line the launcher waits for: the same shape as the service's pino "listening" line. */
export const announce = (port: number): void =>
  console.log(JSON.stringify({ msg: 'listening', port }))

export const stopOnSignals = (close: () => Promise<void>): void => {
  const stop = () => void close().finally(() => process.exit(0))
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

/** The `next` link exactly as adapters/koa/pet-routes.ts writes it (not exported there). */
export const nextLink = (basePath: string, next: ListPetsQuery): string => {
  const params = new URLSearchParams({ limit: String(next.limit) })
  if (next.status !== undefined) params.set('status', next.status)
  if (next.after !== undefined) params.set('after', String(next.after))
  return `<${basePath}/pets?${params.toString()}>; rel="next"`
}

/** Methods a peer answers 405 to on a known path; Koa's router lists GET, HEAD (and POST). */
export const OTHER_METHODS = ['DELETE', 'OPTIONS', 'PATCH', 'PUT', 'TRACE'] as const
