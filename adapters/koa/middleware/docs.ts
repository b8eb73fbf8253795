import type { Next } from 'koa'
import type { AppContext } from '../app-state.js'
import { setAnswer, setAnswerHeader } from '../answer.js'
import type { Responder } from '../responder.js'
import {
  DOCS_CSP,
  docsAssetsDir,
  docsPage,
  loadDocsAssets,
  type DocsAsset,
} from '../docs/assets.js'

/**
 * swagger-ui-dist is an optional peer of the library (the service always has it): an embedder
 * who leaves it out gets no reference page, and its paths are answered like any other.
 */
const assetsDirIfInstalled = () => {
  try {
    return docsAssetsDir()
  } catch {
    return undefined
  }
}

/**
 * `<base path>/docs`: the API reference (Swagger UI) over the served OpenAPI document, and its
 * assets under `<base path>/docs/`. Public like the document itself: it holds nothing the
 * document does not, and the page asks for a key only to try an operation.
 */
export const docs = (basePath: string, respond: Responder) => {
  const pagePath = `${basePath}/docs`
  const assetPrefix = `${pagePath}/`
  const page = { type: 'text/html; charset=utf-8', body: Buffer.from(docsPage(basePath)) }
  const dir = assetsDirIfInstalled()
  if (dir === undefined) return (_ctx: AppContext, next: Next) => next()
  let assets: ReadonlyMap<string, DocsAsset> | undefined

  // Not async: every API request passes through, and a pass-through should cost no promise.
  return (ctx: AppContext, next: Next): Promise<void> | void => {
    const path = ctx.path
    const asset =
      path === pagePath
        ? page
        : path.startsWith(assetPrefix)
          ? (assets ??= loadDocsAssets(dir)).get(path.slice(assetPrefix.length))
          : undefined
    // Anything else, unknown names under docs/ included, goes through the front door like any path.
    if (asset === undefined) return next()
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      return respond.problem(ctx, { _tag: 'MethodNotAllowed', allow: ['GET', 'HEAD'] })
    setAnswerHeader(ctx, 'Content-Security-Policy', DOCS_CSP)
    setAnswer(ctx, 200, asset.type, asset.body)
  }
}
