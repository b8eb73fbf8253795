import type { Server } from 'node:http'
import { pino, type Logger } from 'pino'
import { createHttpServer } from '../../adapters/koa/index.js'
import { composeApp, generatedKeyFor, httpLimitsOf, type GeneratedKey } from './compose.js'
import { openStorage, reportUnreadablePet } from './storage.js'
import { checkApiKeysFile } from './api-keys.js'
import { ConfigurationError, type Config } from './config.js'
import { createLogDestination } from './log-destination.js'
import { pinoRequestLine } from './request-line.js'
import { connectionCap } from './descriptor-limit.js'
import { createShutdown } from './lifecycle.js'
import { startMetrics } from './start-metrics.js'
import type { Tracing } from './tracing/tracing.js'
import type { OnUnreadablePet } from '../../core/index.js'

/** On stderr, never stdout: stdout is the log stream, and a log never holds a key. */
const announceGeneratedKey = ({ key, stored }: GeneratedKey, portAndBase: string) =>
  process.stderr.write(
    `No key source configured (API_KEYS, API_KEYS_FILE or MONGODB_URI): this run accepts the generated key ${key}\n` +
      `  with every scope, until ${new Date(stored.expiresAt ?? 0).toISOString()} or until it stops.\n` +
      `  curl -H 'Authorization: Bearer ${key}' http://localhost:${portAndBase}/pets\n`,
  )

const fail = (message: string, code: number): never => {
  console.error(message)
  process.exit(code)
}

/**
 * The log: JSON lines on stdout. A write(2) per log line is a large share of a request's cost
 * (bench/HISTORY.md): lines go out in 4 KB batches, within a quarter of a second when traffic is
 * light, the rest on exit. With tracing, the lines of a request name its trace (request-log.ts).
 */
const startLog = (config: Config, tracing: Tracing | undefined) => {
  const destination = createLogDestination()
  setInterval(destination.flush, 250).unref()
  process.once('exit', destination.flushSync)
  const logger = pino({ level: config.logLevel }, destination)
  tracing?.reportProblemsTo(logger)
  // The request line skips pino's serializer (see request-line.ts); with info off there is none.
  const requestLine = logger.isLevelEnabled('info') ? pinoRequestLine(destination.write) : undefined
  return { destination, logger, requestLine }
}

/**
 * Listens; the `listening` line, with the port, is announced last, and a port that cannot be
 * bound fails the start with one line.
 */
const listenAndAnnounce = (
  config: Config,
  server: Server,
  generated: GeneratedKey | undefined,
  logger: Logger,
  flush: () => void,
): void => {
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
    const bound = typeof address === 'object' && address !== null ? address : undefined
    const port = bound?.port ?? config.port
    const store = config.mongodbUri === undefined ? 'in-memory' : 'mongodb'
    if (generated !== undefined) announceGeneratedKey(generated, `${port}${config.basePath}`)
    // Announced last, and even when LOG_LEVEL hides info lines: scripts wait for it for the port.
    const announce = config.logLevel === 'silent' ? logger : logger.child({}, { level: 'info' })
    // The address bound (`::` or `0.0.0.0` for every interface when HOST is unset), not the setting.
    announce.info(
      { port, host: bound?.address ?? config.host, basePath: config.basePath, store },
      'listening',
    )
    flush()
  })
}

/** The service, configured by `config` (main.ts has refused an invalid one); `tracing` when main.ts started it. */
export const serve = async (config: Config, tracing: Tracing | undefined): Promise<void> => {
  const { destination, logger, requestLine } = startLog(config, tracing)

  // A signal before the server serves (start-up waits up to STARTUP_TIMEOUT_MS for the database):
  // nothing is in flight, so the process says why it stops and exits 0, as a shutdown would.
  const stopBeforeServing = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'stopped during start-up: nothing was served')
    process.exit(0)
  }
  process.once('SIGTERM', stopBeforeServing)
  process.once('SIGINT', stopBeforeServing)

  const refused = await checkApiKeysFile(config, logger).catch(String)
  if (refused !== undefined) fail(`configuration: ${refused}`, 2)
  const generated = generatedKeyFor(config, Date.now())
  const keys = generated === undefined ? config.apiKeys : [generated.stored]

  const metrics = await startMetrics(config, logger).catch((error: unknown) =>
    fail(`cannot serve metrics on METRICS_PORT: ${String(error)}`, 1),
  )
  const report = reportUnreadablePet(logger)
  const onUnreadablePet: OnUnreadablePet = (pet) => {
    report(pet)
    metrics?.countUnreadablePet(pet)
  }
  const storage = await openStorage(config, logger, onUnreadablePet).catch((error: unknown) => {
    if (error instanceof ConfigurationError) return fail(`configuration: ${error.message}`, 2)
    logger.fatal(
      { err: String(error) },
      'cannot reach the database, giving up (STARTUP_TIMEOUT_MS)',
    )
    return fail(`cannot reach the database: ${String(error)}`, 1)
  })

  const shutdown = createShutdown(logger, {
    drainMs: config.shutdownDrainMs,
    timeoutMs: config.shutdownTimeoutMs,
  })
  const served = { ...storage, checkReadiness: shutdown.readiness(storage.checkReadiness) }
  const app = composeApp(config, served, keys, logger, { metrics, requestLine, tracing })
  const { cap, limit } = connectionCap(config.maxConnections)
  if (cap < config.maxConnections)
    logger.info({ maxConnections: cap, openFilesLimit: limit }, 'MAX_CONNECTIONS lowered to fit')
  // The app is the server's root: answers are written by the server's own writer (root-app.ts).
  const http = createHttpServer(app, httpLimitsOf(config, cap), logger)
  const server = http.server

  listenAndAnnounce(config, server, generated, logger, destination.flush)

  process.off('SIGTERM', stopBeforeServing)
  process.off('SIGINT', stopBeforeServing)
  shutdown.onSignals(http, storage.close, tracing?.shutdown)
}
