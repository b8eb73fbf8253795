import { createServer } from 'node:http'
import { pino } from 'pino'
import { answerClientError } from '../../adapters/koa/index.js'
import { apiKeysFor, composeApp, inMemoryStorage, type Storage } from './compose.js'
import { loadConfig, type Config } from './config.js'

const loaded = loadConfig(process.env)
if ('errors' in loaded) {
  for (const error of loaded.errors) console.error(`configuration: ${error}`)
  process.exit(2)
}
const config: Config = loaded.config
const logger = pino({ level: config.logLevel, redact: ['req.headers.authorization'] })

const openStorage = async (): Promise<Storage> => {
  if (config.mongodbUri === undefined) return inMemoryStorage()
  const { mongoStorage } = await import('./mongo-storage.js')
  return mongoStorage(config.mongodbUri, logger)
}

const storage = await openStorage()
const { keys, generated } = apiKeysFor(config)
if (generated && config.mongodbUri !== undefined) {
  console.error(
    'configuration: API_KEYS must be set when MONGODB_URI is (every instance needs the same keys)',
  )
  process.exit(2)
}

const app = composeApp(config, storage, keys, logger)
const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, app.callback())
// Longer than the usual load balancer idle timeout (60 s), so the balancer closes idle connections first.
server.keepAliveTimeout = 65_000
server.on('clientError', answerClientError)

server.listen(config.port, config.host, () => {
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  logger.info({ port, host: config.host ?? null, basePath: config.basePath }, 'listening')
  if (generated)
    console.log(
      `No API_KEYS configured: this run accepts the generated key ${keys[0]}\n` +
        `  curl -H 'Authorization: Bearer ${keys[0]}' http://localhost:${port}${config.basePath}/pets`,
    )
})

const shutdown = (signal: string) => {
  logger.info({ signal }, 'shutting down')
  server.close(() => void storage.close().then(() => process.exit(0)))
  server.closeIdleConnections()
  setTimeout(() => process.exit(0), 10_000).unref()
}
process.once('SIGTERM', () => shutdown('SIGTERM'))
process.once('SIGINT', () => shutdown('SIGINT'))
