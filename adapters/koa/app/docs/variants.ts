import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { constants, gzip } from 'node:zlib'
import type { DocsAsset } from './assets.js'

/** One form of an asset as sent: its bytes, their coding, and a strong ETag of those bytes. */
export type Variant = {
  readonly body: Buffer
  readonly encoding: 'gzip' | undefined
  readonly etag: string
}

/** An asset's forms: as it is, and gzipped when that is smaller. */
export type Variants = {
  readonly type: string
  readonly identity: Variant
  readonly gzip: Variant | undefined
}

const etagOf = (bytes: Buffer): string =>
  `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`

const compress = promisify(gzip)

/** Compressed once, at the highest level (off the event loop, in libuv's thread pool). */
export const variantsOf = async (asset: DocsAsset): Promise<Variants> => {
  const identity = { body: asset.body, encoding: undefined, etag: etagOf(asset.body) }
  const zipped = await compress(asset.body, { level: constants.Z_BEST_COMPRESSION })
  const smaller = zipped.length < asset.body.length
  return {
    type: asset.type,
    identity,
    gzip: smaller ? { body: zipped, encoding: 'gzip', etag: etagOf(zipped) } : undefined,
  }
}

/**
 * Whether `If-None-Match` names this ETag (weakly compared, as RFC 9110 wants for it) or is `*`.
 */
export const notModified = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (ifNoneMatch === undefined) return false
  // One pass, nothing copied: a value of thousands of tags costs no more than its length.
  for (let start = 0; start <= ifNoneMatch.length;) {
    const comma = ifNoneMatch.indexOf(',', start)
    let [from, to] = [start, comma === -1 ? ifNoneMatch.length : comma]
    while (from < to && ifNoneMatch.charCodeAt(from) <= 32) from++
    while (to > from && ifNoneMatch.charCodeAt(to - 1) <= 32) to--
    if (to - from === 1 && ifNoneMatch.charCodeAt(from) === 42) return true
    if (ifNoneMatch.startsWith('W/', from)) from += 2
    if (to - from === etag.length && ifNoneMatch.startsWith(etag, from)) return true
    if (comma === -1) return false
    start = comma + 1
  }
  return false
}
