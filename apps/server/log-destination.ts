import { writeSync } from 'node:fs'

const PAUSE = new Int32Array(new SharedArrayBuffer(4))
const NOTHING: Buffer = Buffer.alloc(0)

export type LogDestinationOptions = {
  /** Where lines go: standard output by default. */
  readonly fd?: number
  /** A batch is written once this many characters wait (or on `flush`). */
  readonly minChars?: number
  /** Past this much waiting (a reader that stopped reading), lines are dropped. */
  readonly maxPendingChars?: number
}

export type LogDestination = {
  /** What pino calls with each line. */
  readonly write: (line: string) => void
  /** Writes whatever waits, without waiting for a full batch. */
  readonly flush: () => void
  /** Like flush, but waits (up to a second) for a descriptor that is busy: for the exit. */
  readonly flushSync: () => void
}

/**
 * Log lines to a file descriptor in batches: one write per 4 KB of lines.
 *
 * Why not pino.destination (sonic-boom 4)? In its asynchronous mode each batch is handed to a
 * libuv worker thread, which runs on the server's core; and it measures the byte length of its
 * whole pending buffer on every line. The costs are in bench/HISTORY.md.
 * Here a line costs an array push, and a batch one `join` and one write(2) of that string.
 *
 * A blocking descriptor whose reader is slow holds the process up, as pino's default does: the
 * log is not silently thinned. A non-blocking one that is full (EAGAIN) is retried 10 ms later;
 * meanwhile at most `maxPendingChars` wait, later lines are dropped and counted, and the count is
 * written as a line of its own once writing resumes.
 */
export const createLogDestination = (options: LogDestinationOptions = {}): LogDestination => {
  const { fd = 1, minChars = 4096, maxPendingChars = 32 * 1024 * 1024 } = options
  let pending: string[] = []
  let pendingChars = 0
  let dropped = 0
  /** Bytes of a batch that a busy descriptor has not taken yet: written before anything else. */
  let unwritten: Buffer = NOTHING
  let retry: NodeJS.Timeout | undefined

  const takeBatch = (): string => {
    if (dropped > 0) {
      pending.push(
        `{"level":40,"time":${Date.now()},"msg":"log lines dropped","dropped":${dropped}}\n`,
      )
      dropped = 0
    }
    const batch = pending.join('')
    pending = []
    pendingChars = 0
    return batch
  }

  /**
   * Writes a batch as a string, which node encodes without a Buffer of ours; only the rest of a
   * partial write (a busy pipe) is kept, as bytes.
   */
  const writeBatch = (): void => {
    const batch = takeBatch()
    let written: number
    try {
      written = writeSync(fd, batch)
    } catch (error) {
      // A busy descriptor took nothing: the whole batch waits for the retry.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') unwritten = Buffer.from(batch)
      throw error
    }
    if (written < Buffer.byteLength(batch)) unwritten = Buffer.from(batch).subarray(written)
  }

  /** Writes until nothing waits; false when the descriptor is busy. */
  const writeOut = (): boolean => {
    for (;;) {
      try {
        if (unwritten.length > 0) unwritten = unwritten.subarray(writeSync(fd, unwritten))
        else if (pendingChars > 0 || dropped > 0) writeBatch()
        else return true
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return false
        // Nowhere left to report a failing log: this batch is lost, later lines are still tried.
        unwritten = NOTHING
      }
    }
  }

  const flush = (): void => {
    if (retry !== undefined || writeOut()) return
    retry = setTimeout(() => {
      retry = undefined
      flush()
    }, 10)
  }

  return {
    write: (line) => {
      if (pendingChars + unwritten.length + line.length > maxPendingChars) {
        dropped++
        return
      }
      pending.push(line)
      pendingChars += line.length
      if (pendingChars >= minChars) flush()
    },
    flush,
    flushSync: () => {
      for (let tries = 0; !writeOut() && tries < 1000; tries++) Atomics.wait(PAUSE, 0, 0, 1)
    },
  }
}
