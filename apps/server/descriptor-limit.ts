import { readFileSync } from 'node:fs'
import { OVERFLOW_CONNECTIONS } from '../../adapters/koa/index.js'

/** Descriptors kept for everything but client connections: stdio, the store's pool, files, DNS. */
export const RESERVED_DESCRIPTORS = 64

/** The soft limit on open files (`ulimit -n`), where the system tells it (Linux); else undefined. */
export const openFilesLimit = (): number | undefined => {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    return line?.[1] === undefined ? undefined : Number(line[1])
  } catch {
    return undefined
  }
}

/**
 * MAX_CONNECTIONS, lowered when the descriptor limit could not hold it (with the refused overflow
 * and the reserve): then a flood meets a clean 503, never EMFILE.
 */
export const connectionCap = (configured: number): { cap: number; limit: number | undefined } => {
  const limit = openFilesLimit()
  if (limit === undefined) return { cap: configured, limit }
  const fits = limit - RESERVED_DESCRIPTORS - OVERFLOW_CONNECTIONS
  return { cap: Math.max(2, Math.min(configured, fits)), limit }
}
