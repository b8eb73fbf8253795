import { open, stat } from 'node:fs/promises'
import type { BigIntStats } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type { KeySnapshot, StoredKey } from '../../core/index.js'
import { createLineSplitter } from './line-splitter.js'
import { parseLine } from './lines.js'
import { checkKeyFileStats, isRefused } from './mode.js'

/** The version of a missing file: it holds no keys. */
const ABSENT = 'absent'

/** A rename gives the file a new inode, and any write a new size or time. */
const versionOf = (s: BigIntStats) => `${s.ino}-${s.size}-${s.mtimeNs}`

const statOrAbsent = (path: string): Promise<BigIntStats | undefined> =>
  stat(path, { bigint: true }).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? undefined : Promise.reject(error),
  )

const refuseIfUnsafe = (path: string, s: BigIntStats) => {
  const check = checkKeyFileStats(path, { mode: Number(s.mode), uid: Number(s.uid) })
  if (isRefused(check)) throw new Error(check.reason)
}

/**
 * Reads the file in chunks, parsing each chunk's lines as it comes, so a large file never holds
 * the event loop for more than one chunk. A broken line fails the whole read.
 */
const readLines = async (path: string): Promise<KeySnapshot> => {
  const file = await open(path, 'r')
  try {
    const opened = await file.stat({ bigint: true })
    refuseIfUnsafe(path, opened)
    const keys: StoredKey[] = []
    let n = 0
    const lines = createLineSplitter((line) => {
      n++
      const trimmed = line.trim()
      if (trimmed === '') return
      const key = parseLine(trimmed, n)
      if (E.isLeft(key)) throw new Error(key.left)
      keys.push(key.right)
    })
    for await (const chunk of file.createReadStream({
      encoding: 'utf8',
      autoClose: false,
      highWaterMark: 8192,
    }))
      lines.push(chunk as string)
    lines.end()
    return { version: versionOf(opened), keys }
  } finally {
    await file.close()
  }
}

/** The keys, unless the file's inode, size and modification time are still those of `seen`. */
export const readIfChanged = async (
  path: string,
  seen: string | undefined,
): Promise<O.Option<KeySnapshot>> => {
  const found = await statOrAbsent(path)
  if (found === undefined) return seen === ABSENT ? O.none : O.some({ version: ABSENT, keys: [] })
  refuseIfUnsafe(path, found)
  if (versionOf(found) === seen) return O.none
  return O.some(await readLines(path).catch(absentAsEmpty))
}

/** The file was renamed away between the stat and the open: it holds no keys now. */
const absentAsEmpty = (error: NodeJS.ErrnoException): KeySnapshot => {
  if (error.code === 'ENOENT') return { version: ABSENT, keys: [] }
  throw error
}

/** Every key in the file (none when it is missing). */
export const readAll = async (path: string): Promise<ReadonlyArray<StoredKey>> => {
  const snapshot = await readIfChanged(path, undefined)
  return O.isSome(snapshot) ? snapshot.value.keys : []
}
