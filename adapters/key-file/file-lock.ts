import { open, stat, unlink } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'

/** How a writer of the key file waits for the lock. */
export type FileLockOptions = {
  /** How long to wait for another holder before giving up. */
  readonly waitMs?: number
  /** A lock older than this was left behind by a run that was killed: it is taken over. */
  readonly staleMs?: number
}

const RETRY_MS = 20

const isStale = async (lock: string, staleMs: number): Promise<boolean> => {
  try {
    return Date.now() - (await stat(lock)).mtimeMs > staleMs
  } catch {
    return false // gone already: the next attempt takes it
  }
}

/**
 * Runs `task` while holding `<path>.lock`, a file created only if it does not exist (O_EXCL),
 * and removed after. Why: each run of the keys CLI reads the key file, adds or revokes, and
 * renames a new file over it; two runs at once would each write what they read, and the later
 * rename would drop the other's key or revocation while both reported success.
 */
export const withFileLock = async <A>(
  path: string,
  task: () => Promise<A>,
  options: FileLockOptions = {},
): Promise<A> => {
  const { waitMs = 5000, staleMs = 30_000 } = options
  const lock = `${path}.lock`
  const giveUpAt = Date.now() + waitMs
  for (;;) {
    try {
      await (await open(lock, 'wx', 0o600)).close()
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (await isStale(lock, staleMs)) await unlink(lock).catch(() => undefined)
      else if (Date.now() >= giveUpAt)
        throw new Error(`${lock} is held by another run (remove it if no run is in progress)`)
      else await sleep(RETRY_MS)
    }
  }
  try {
    return await task()
  } finally {
    await unlink(lock).catch(() => undefined)
  }
}
