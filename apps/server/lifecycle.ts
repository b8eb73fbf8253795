import * as TE from 'fp-ts/lib/TaskEither.js'
import type { HttpServer } from '../../adapters/koa/index.js'
import { shuttingDown, type CheckReadiness, type Logger } from '../../core/index.js'

export type ShutdownOptions = {
  /** How long /readyz answers 503 before the listener closes (the balancer's time to notice). */
  readonly drainMs: number
  /** From the signal to a forced exit 1. */
  readonly timeoutMs: number
}

export type Shutdown = {
  /** The readiness check to serve: 503 from the signal on. */
  readonly readiness: (check: CheckReadiness) => CheckReadiness
  /**
   * Starts the sequence on SIGTERM and SIGINT. `flushTraces`, with tracing on, exports the spans
   * still pending once the store is closed.
   */
  readonly onSignals: (
    http: HttpServer,
    closeStore: () => Promise<void>,
    flushTraces?: () => Promise<void>,
  ) => void
}

/** Kept for the last lines of the log and the exit itself, out of the shutdown budget. */
const EXIT_MARGIN_MS = 250
/**
 * The most the pending spans may take to leave: a batch reaches a collector that answers in far
 * less, and one that is down must not hold a rolling restart for the rest of the budget.
 */
export const TRACE_FLUSH_MAX_MS = 1000

/**
 * A rolling restart loses no request it received (what it does not guard against is listed in the
 * docs/operations.md, under Shutdown): at the signal /readyz turns 503, every answer from then on
 * says `Connection: close` and idle connections close; after `drainMs` the listener closes; when
 * the last request is answered the store closes, pending spans are exported (with tracing on, for
 * at most TRACE_FLUSH_MAX_MS and within the budget: spans that cannot leave by then are dropped,
 * with a warning) and the
 * process exits 0. Past `timeoutMs` it is forced out with status 1, and says so. A repeated signal
 * changes nothing (it is logged).
 */
export const createShutdown = (logger: Logger, options: ShutdownOptions): Shutdown => {
  let stopping = false
  const exit = (code: number) => process.exit(code)

  /** Resolves when the spans are out or the budget ends, whichever comes first. */
  const flushWithin = (flush: () => Promise<void>, started: number): Promise<void> => {
    const left = Math.min(
      TRACE_FLUSH_MAX_MS,
      options.timeoutMs - (Date.now() - started) - EXIT_MARGIN_MS,
    )
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(
        () => {
          logger.warn(
            { flushMs: Math.max(0, left) },
            'spans still pending at the end of their share of the shutdown budget: dropped',
          )
          resolve()
        },
        Math.max(0, left),
      )
    })
    const flushed = flush().catch(() => {}) // a failure is the SDK's to report (start.ts)
    return Promise.race([flushed, late]).finally(() => clearTimeout(timer))
  }

  const run = (
    signal: string,
    { server, connections }: HttpServer,
    closeStore: () => Promise<void>,
    flushTraces: () => Promise<void>,
  ) => {
    if (stopping) {
      logger.info({ signal }, 'already shutting down: the signal changes nothing')
      return
    }
    stopping = true
    const started = Date.now()
    logger.info({ signal, drainMs: options.drainMs, open: connections.count() }, 'shutting down')
    connections.drain()
    setTimeout(() => {
      logger.error(
        { signal, timeoutMs: options.timeoutMs, open: connections.count() },
        'forced exit: requests still in progress at the end of the shutdown budget',
      )
      exit(1)
    }, options.timeoutMs).unref()
    setTimeout(() => {
      server.close(() => {
        void closeStore().then(
          async () => {
            await flushWithin(flushTraces, started)
            logger.info({ ms: Date.now() - started }, 'stopped')
            exit(0)
          },
          (error: unknown) => {
            logger.error({ err: String(error) }, 'the store did not close cleanly')
            exit(1)
          },
        )
      })
      connections.closeIdle()
    }, options.drainMs)
  }

  return {
    readiness: (check) => () => (stopping ? TE.left(shuttingDown) : check()),
    onSignals: (http, closeStore, flushTraces = () => Promise.resolve()) => {
      // `on`, not `once`: a second signal would otherwise get Node's default, an exit on the
      // spot that drops every request in flight.
      process.on('SIGTERM', () => run('SIGTERM', http, closeStore, flushTraces))
      process.on('SIGINT', () => run('SIGINT', http, closeStore, flushTraces))
    },
  }
}
