import { randomBytes } from 'node:crypto'
import { open, rename, unlink } from 'node:fs/promises'

/**
 * Replaces the file at `path` with `text`, so that a reader sees the old file or the new one,
 * never half of one. The new text goes to a temporary file of a random name created only if
 * nothing is there (O_EXCL: a planted file or symbolic link is never followed or reused), with
 * mode 0600 from the start, then renamed over `path`.
 */
export const replaceFile = async (path: string, text: string): Promise<void> => {
  const temp = `${path}.${randomBytes(8).toString('hex')}.tmp`
  const file = await open(temp, 'wx', 0o600)
  try {
    try {
      await file.writeFile(text)
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}
