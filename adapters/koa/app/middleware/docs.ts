import type { Next } from 'koa'
import type { AppContext } from '../../request/app-state.js'
import type { Problem } from '../../response/problem.js'
import { budgetKeyOf } from '../../request/address-budget.js'
import { prefersGzip } from '../../request/media-type.js'
import {
  setAnswer,
  setEmptyAnswer,
  setHeader,
  type Responder,
} from '../../response/answer/index.js'
import type { RateLimits } from '../rate-limits.js'
import type { ClientOf } from '../../request/client-address.js'
import { DOCS_CSP, docsAssetsDir, DOCS_PAGE, loadDocsAssets } from '../docs/assets.js'
import { notModified, variantsOf, type Variant, type Variants } from '../docs/variants.js'
import { PUBLIC_METHODS } from '../public-paths.js'

/**
 * swagger-ui-dist is an optional peer of the library (the service always has it): an embedder
 * who leaves it out gets no reference page, and its paths answer 501 naming the package.
 */
const assetsDirIfInstalled = () => {
  try {
    return docsAssetsDir()
  } catch {
    return undefined
  }
}

/** What the page's paths answer without swagger-ui-dist: what is missing, rather than a 401. */
const MISSING: Problem = {
  _tag: 'NotImplemented',
  detail:
    'the API reference page needs the package swagger-ui-dist, which is not installed here (npm install swagger-ui-dist@5); the OpenAPI document is served all the same',
}

const pageMissing = (pagePath: string, respond: Responder) => {
  const noDocsPage = (ctx: AppContext, next: Next): Promise<void> | void =>
    ctx.path === pagePath || ctx.path.startsWith(`${pagePath}/`)
      ? respond.problem(ctx, MISSING)
      : next()
  return noDocsPage
}

/** The page is checked again on each visit; its assets are kept an hour, then checked. */
const PAGE_CACHE = 'no-cache'
const ASSET_CACHE = 'public, max-age=3600'

/** gzip when the client asks for it by name; a client that says nothing gets the bytes as they are. */
const variantFor = (ctx: AppContext, variants: Variants): Variant =>
  variants.gzip !== undefined && prefersGzip(ctx.req.headers['accept-encoding'] ?? '')
    ? variants.gzip
    : variants.identity

/**
 * `<base path>/docs`: the API reference (Swagger UI) over the served OpenAPI document, and its
 * assets under `<base path>/docs/`. Public like the document itself: it holds nothing the
 * document does not, and the page asks for a key only to try an operation. Every answer is
 * compressed when the client takes gzip, carries an ETag (a revalidation costs a 304), and
 * a full answer draws on the client address's docs budget (429 once spent).
 */
export const docs = (
  basePath: string,
  respond: Responder,
  clientOf: ClientOf,
  limits?: RateLimits,
) => {
  const pagePath = `${basePath}/docs`
  const assetPrefix = `${pagePath}/`
  const dir = assetsDirIfInstalled()
  if (dir === undefined) return pageMissing(pagePath, respond)
  let page: Promise<Variants> | undefined
  let assets: Promise<ReadonlyMap<string, Variants>> | undefined
  const lookup = (path: string): Promise<Variants | undefined> | undefined => {
    if (path === pagePath)
      return (page ??= variantsOf({
        type: 'text/html; charset=utf-8',
        body: Buffer.from(DOCS_PAGE),
      }))
    if (!path.startsWith(assetPrefix)) return undefined
    return (assets ??= loadDocsAssets(dir)).then((all) => all.get(path.slice(assetPrefix.length)))
  }

  const serve = (ctx: AppContext, variants: Variants, cacheControl: string): void => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      return respond.problem(ctx, { _tag: 'MethodNotAllowed', allow: PUBLIC_METHODS })
    const variant = variantFor(ctx, variants)
    const fresh = notModified(ctx.get('If-None-Match') || undefined, variant.etag)
    const limited = fresh
      ? undefined
      : limits?.admitDocs(ctx, budgetKeyOf(clientOf(ctx.state, ctx.req)))
    if (limited !== undefined) return respond.problem(ctx, limited)
    setHeader(ctx, 'Content-Security-Policy', DOCS_CSP)
    setHeader(ctx, 'Cache-Control', cacheControl)
    setHeader(ctx, 'ETag', variant.etag)
    // Koa's helper: it adds to a Vary already set (by cors, say) where a setter would replace it.
    ctx.vary('Accept-Encoding')
    if (fresh) return setEmptyAnswer(ctx, 304)
    if (variant.encoding !== undefined) setHeader(ctx, 'Content-Encoding', variant.encoding)
    setAnswer(ctx, 200, variants.type, variant.body)
  }

  // Not async: every API request passes through, and a pass-through should cost no promise.
  const serveDocsPage = (ctx: AppContext, next: Next): Promise<void> | void => {
    const found = lookup(ctx.path)
    // Anything else, unknown names under docs/ included, goes through guardApi like any path.
    if (found === undefined) return next()
    const cacheControl = ctx.path === pagePath ? PAGE_CACHE : ASSET_CACHE
    return found.then((variants) =>
      variants === undefined ? next() : serve(ctx, variants, cacheControl),
    )
  }
  return serveDocsPage
}
