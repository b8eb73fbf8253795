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
  assets.set('init.js', {
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

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;')

export const docsPage = (basePath: string): string => {
  const base = escapeAttr(basePath)
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Animal Store API reference</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${base}/docs/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui" data-openapi="${base}/openapi.json" data-base-path="${base}"></div>
    <script src="${base}/docs/swagger-ui-bundle.js"></script>
    <script src="${base}/docs/init.js"></script>
  </body>
</html>
`
}
