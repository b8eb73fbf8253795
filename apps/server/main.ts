import { createServer } from 'node:http'
import { pino } from 'pino'
import { answerClientError } from '../../adapters/koa/index.js'
import { apiKeysFor, composeApp, inMemoryStorage, type Storage } from './compose.js'
import { loadConfig, type Config } from './config.js'

const fail = (message: string, code: number): never => {
  console.error(message)
  process.exit(code)
}

const loaded = loadConfig(process.env)
const config: Config =
  'errors' in loaded
    ? fail(loaded.errors.map((e) => `configuration: ${e}`).join('\n'), 2)
    : loaded.config
const logger = pino({ level: config.logLevel })

const { keys, generated } = apiKeysFor(config)
if (generated && config.mongodbUri !== undefined)
  fail(
    'configuration: API_KEYS must be set with MONGODB_URI (every instance needs the same keys)',
    2,
  )

const openStorage = async (uri: string | undefined): Promise<Storage> => {
  if (uri === undefined) return inMemoryStorage()
  const { mongoStorage } = await import('./mongo-storage.js')
  return mongoStorage(uri, config, logger)
}
const storage = await openStorage(config.mongodbUri).catch((error: unknown) => {
  logger.fatal({ err: String(error) }, 'cannot reach the database, giving up (STARTUP_TIMEOUT_MS)')
  return fail(`cannot reach the database: ${String(error)}`, 1)
})

const app = composeApp(config, storage, keys, logger)
const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, app.callback())
// Longer than a load balancer's usual idle timeout (60 s), so that the balancer closes first.
server.keepAliveTimeout = 65_000
server.on('clientError', answerClientError)

// One line, not a stack trace: the usual cause is a second instance on the same port.
const cannotListen = (error: NodeJS.ErrnoException) =>
  fail(
    `cannot listen on ${config.host ?? '*'}:${config.port}: ${
      error.code === 'EADDRINUSE' ? 'the port is in use (PORT=0 picks a free one)' : error.message
    }`,
    1,
  )
server.once('error', cannotListen)

server.listen(config.port, config.host, () => {
  server.off('error', cannotListen)
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  const store = config.mongodbUri === undefined ? 'in-memory' : 'mongodb'
  if (generated)
    console.log(
      `No API_KEYS configured: this run accepts the generated key ${keys[0]}\n` +
        `  curl -H 'Authorization: Bearer ${keys[0]}' http://localhost:${port}${config.basePath}/pets`,
    )
  // Announced last, and even when LOG_LEVEL hides info lines: scripts wait for it for the port.
  const announce = config.logLevel === 'silent' ? logger : logger.child({}, { level: 'info' })
  announce.info({ port, host: config.host ?? null, basePath: config.basePath, store }, 'listening')
})

const shutdown = (signal: string) => {
  logger.info({ signal }, 'shutting down')
  server.close(() => void storage.close().then(() => process.exit(0)))
  server.closeIdleConnections()
  setTimeout(() => process.exit(0), 10_000).unref()
}
process.once('SIGTERM', () => shutdown('SIGTERM'))
process.once('SIGINT', () => shutdown('SIGINT'))
