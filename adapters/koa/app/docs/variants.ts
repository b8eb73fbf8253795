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
export const notModified = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch !== undefined &&
  ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim()
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag
  })
