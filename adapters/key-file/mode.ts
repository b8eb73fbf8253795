import { stat } from 'node:fs/promises'

/** Whether a key file's permission bits are safe to trust; a string says what is wrong. */
export type ModeCheck =
  | { readonly _tag: 'Private' }
  | { readonly _tag: 'OwnedByOther'; readonly reason: string }
  | { readonly _tag: 'ReadableByOthers'; readonly reason: string }
  | { readonly _tag: 'WritableByOthers'; readonly reason: string }

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0')

/**
 * A key file that others can write lets them add a key with every scope: refused. One that
 * others can read shows only digests, ids and labels (a SHA-256 of a 256-bit key gives the key
 * away to no one): allowed, with a warning, since a mounted secret is often 0644.
 */
export const checkKeyFileMode = (path: string, mode: number): ModeCheck => {
  if ((mode & 0o022) !== 0)
    return {
      _tag: 'WritableByOthers',
      reason: `key file ${path} has mode ${octal(mode)}: others could add a key to it (chmod 600 ${path})`,
    }
  if ((mode & 0o044) !== 0)
    return {
      _tag: 'ReadableByOthers',
      reason: `key file ${path} has mode ${octal(mode)}: others can read the key ids and labels (chmod 600 ${path})`,
    }
  return { _tag: 'Private' }
}

/**
 * The owner, then the mode. A file owned by another user than this process's lets that user add
 * a key whatever its mode: refused, unless the owner is root (who can do anything anyway, and owns
 * mounted secrets), as OpenSSH does for authorized_keys. No check where there are no user ids.
 */
export const checkKeyFileStats = (
  path: string,
  stats: { readonly mode: number; readonly uid: number },
  serviceUid: number | undefined = process.getuid?.(),
): ModeCheck =>
  serviceUid === undefined || stats.uid === serviceUid || stats.uid === 0
    ? checkKeyFileMode(path, stats.mode)
    : {
        _tag: 'OwnedByOther',
        reason: `key file ${path} is owned by uid ${stats.uid}, not by this service's user (uid ${serviceUid}) or root: that user could add a key to it (chown ${serviceUid} ${path})`,
      }

/** Whether a check refuses the file: its owner or others could add a key. */
export const isRefused = (check: ModeCheck): check is ModeCheck & { readonly reason: string } =>
  check._tag === 'WritableByOthers' || check._tag === 'OwnedByOther'

/** The check of the file at `path`; a missing file is private (it holds no keys). */
export const checkKeyFile = async (path: string): Promise<ModeCheck> => {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? undefined : Promise.reject(error),
  )
  return found === undefined ? { _tag: 'Private' } : checkKeyFileStats(path, found)
}
