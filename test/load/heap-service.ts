/**
 * The service as main.ts composes it on the in-memory store (config from the environment, the
 * MAX_PETS heap check included), run by `node --expose-gc --max-old-space-size=N --import tsx`
 * under a parent that drives it over loopback and asks it, by IPC, for its heap after a full
 * collection. No logging: the heap is the service's own.
 */
import { getHeapStatistics } from 'node:v8'
import * as E from 'fp-ts/lib/Either.js'
import { createHttpServer } from '../../adapters/koa/index.js'
import { silentLogger } from '../../core/index.js'
import { composeApp, httpLimitsOf } from '../../apps/server/compose.js'
import { loadConfig } from '../../apps/server/config.js'
import { inMemoryStorage } from '../../apps/server/storage.js'

export type HeapServiceMessage =
  | { readonly listening: { port: number; maxPets: number; heapLimit: number } }
  | { readonly heapUsed: number }
  | { readonly refused: ReadonlyArray<string> }

const send = (message: HeapServiceMessage) => process.send?.(message)
const collect = (global as { gc?: () => void }).gc as () => void

const loaded = loadConfig(process.env)
if (E.isLeft(loaded)) {
  send({ refused: loaded.left })
  process.exit(2)
}
const config = loaded.right
const storage = inMemoryStorage(config.maxPets)
const app = composeApp(config, storage, config.apiKeys, silentLogger)
// The app itself, as main.ts serves it (its answers written by the server's root-app path).
const { server } = createHttpServer(app, httpLimitsOf(config), silentLogger)
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const heapLimit = getHeapStatistics().heap_size_limit
  send({ listening: { port, maxPets: config.maxPets, heapLimit } })
})
process.on('message', (message) => {
  if (message === 'heap') {
    collect()
    collect()
    send({ heapUsed: process.memoryUsage().heapUsed })
  } else if (message === 'stop') {
    server.closeAllConnections()
    server.close(() => process.exit(0))
  }
})
