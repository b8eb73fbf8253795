import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { DOCS_INIT_SCRIPT } from './init-script.js'
import { variantsOf, type Variants } from './variants.js'

export type DocsAsset = { readonly type: string; readonly body: Buffer }

/** Only what the page loads: Swagger UI's bundle and stylesheet (from npm) and our init script. */
const FROM_PACKAGE = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const
const INIT_SCRIPT = 'init.js'

/** The names of the page's assets, served under `<base path>/docs/`. */
export const DOCS_ASSET_NAMES: ReadonlyArray<string> = [...Object.keys(FROM_PACKAGE), INIT_SCRIPT]

/** Where swagger-ui-dist is installed; throws when it is not. */
export const docsAssetsDir = (): string =>
  dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

/**
 * Read and compressed once, when the page is first asked for (1.5 MB that a service nobody
 * browses need not hold), off the event loop: after that the page never touches the disk.
 */
export const loadDocsAssets = async (dir: string): Promise<ReadonlyMap<string, Variants>> =>
  new Map(
    await Promise.all(
      [...readDocsAssets(dir)].map(
        async ([name, asset]) => [name, await variantsOf(asset)] as const,
      ),
    ),
  )

const readDocsAssets = (dir: string): ReadonlyMap<string, DocsAsset> => {
  const assets = new Map<string, DocsAsset>(
    Object.entries(FROM_PACKAGE).map(([name, type]) => [
      name,
      { type, body: readFileSync(join(dir, name)) },
    ]),
  )
  assets.set(INIT_SCRIPT, {
    type: 'text/javascript; charset=utf-8',
    body: Buffer.from(DOCS_INIT_SCRIPT),
  })
  return assets
}

/** No inline script anywhere; try-it-out calls go to this origin only. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The page at `<base path>/docs`. Its URLs are relative to it (`docs/init.js` from `/v1/docs` is
 * `/v1/docs/init.js`), so that they resolve wherever a client reaches the page: under a host's
 * mount or a proxy's prefix as at the root.
 */
export const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Animal Store API reference</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="docs/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui" data-openapi="openapi.json" data-base-path="."></div>
    <script src="docs/swagger-ui-bundle.js"></script>
    <script src="docs/init.js"></script>
  </body>
</html>
`
