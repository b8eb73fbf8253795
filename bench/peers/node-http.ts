/**
 * The practical ceiling: the same three routes on bare node:http. It runs the very use cases,
 * codecs, body reader and JSON writers the service runs, so what it saves is exactly what Koa,
 * the router and the middleware chain cost per request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import * as O from 'fp-ts/lib/Option.js'
import { deprecationHeaders, GET_PET_SUNSET } from '../../adapters/koa/deprecation.js'
import { answerClientError } from '../../adapters/koa/index.js'
import { readJsonBody } from '../../adapters/koa/json-body.js'
import { petJson, petsJson } from '../../adapters/koa/pet-json.js'
import {
  ERROR_CODES,
  errorBody,
  toErrorResponse,
  type Problem,
} from '../../adapters/koa/problem.js'
import { requestIdOf } from '../../adapters/koa/request-id.js'
import { MAX_BODY_BYTES } from '../../apps/server/compose.js'
import { authenticate, createPet, getPet, listPets } from '../../core/index.js'
import { announce, nextLink, openPeer, stopOnSignals } from './common.js'

const peer = await openPeer()
const { basePath, retryAfterSeconds } = peer.config
const deprecated = Object.entries(
  deprecationHeaders(
    { deprecatedAt: peer.config.getPetDeprecatedAt, sunsetAt: GET_PET_SUNSET },
    basePath,
  ),
)
const authenticateHeader = authenticate(peer.apiKeys)
const list = listPets(peer.store)
const create = createPet(peer.store)
const get = getPet(peer.store)
const PET_PATH = /^\/pets\/([^/]+)$/

const send = (
  res: ServerResponse,
  status: number,
  json: string,
  headers: Readonly<Record<string, string>> = {},
): void => {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(json),
  })
  res.end(json)
}

const sendProblem = (res: ServerResponse, problem: Problem): void => {
  const { code, message, headers } = toErrorResponse(problem, retryAfterSeconds)
  send(res, ERROR_CODES[code], errorBody(code, message), headers)
}

const listRoute = async (res: ServerResponse, search: string) => {
  const page = await list(parseQuery(search))()
  if (page._tag === 'Left') return sendProblem(res, page.left)
  const { pets, next } = page.right
  send(res, 200, petsJson(pets), O.isSome(next) ? { Link: nextLink(basePath, next.value) } : {})
}

const createRoute = async (req: IncomingMessage, res: ServerResponse) => {
  const body = await readJsonBody(req, MAX_BODY_BYTES)
  if (body._tag === 'Left') return sendProblem(res, body.left)
  const pet = await create(body.right)()
  if (pet._tag === 'Left') return sendProblem(res, pet.left)
  send(res, 201, petJson(pet.right), { Location: `${basePath}/pets/${pet.right.id}` })
}

/** As @koa/router decodes path parameters: a malformed escape is kept as it was sent. */
const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const getRoute = async (res: ServerResponse, rawId: string) => {
  if (Date.now() >= GET_PET_SUNSET.getTime())
    return sendProblem(res, {
      _tag: 'Gone',
      detail: `this operation was removed; use GET ${basePath}/pets?status=...`,
    })
  const pet = await get(safeDecode(rawId))()
  if (pet._tag === 'Left') return sendProblem(res, pet.left)
  send(res, 200, petJson(pet.right))
}

/** The service's order: framing headers, 404 outside the base path, deprecation, auth, routes. */
const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
  res.setHeader('X-Request-Id', requestIdOf(req.headers['x-request-id']))
  res.setHeader('Cache-Control', 'no-store')
  res.setHeader('X-Content-Type-Options', 'nosniff')
  const url = req.url ?? '/'
  const mark = url.indexOf('?')
  const path = mark < 0 ? url : url.slice(0, mark)
  if (path !== basePath && !path.startsWith(`${basePath}/`))
    return sendProblem(res, { _tag: 'RouteNotFound' })
  const route = path.slice(basePath.length)
  const reading = req.method === 'GET' || req.method === 'HEAD'
  const petId = PET_PATH.exec(route)?.[1]
  if (reading && petId !== undefined)
    for (const [name, value] of deprecated) res.setHeader(name, value)
  const principal = await authenticateHeader(req.headers.authorization)()
  if (principal._tag === 'Left') return sendProblem(res, principal.left)
  if (route === '/pets') {
    if (reading) return listRoute(res, mark < 0 ? '' : url.slice(mark + 1))
    if (req.method === 'POST') return createRoute(req, res)
    return sendProblem(res, { _tag: 'MethodNotAllowed', allow: ['GET', 'HEAD', 'POST'] })
  }
  if (petId !== undefined)
    return reading
      ? getRoute(res, petId)
      : sendProblem(res, { _tag: 'MethodNotAllowed', allow: ['GET', 'HEAD'] })
  if (route === '/store/orders')
    return reading
      ? sendProblem(res, { _tag: 'NotImplemented' })
      : sendProblem(res, { _tag: 'MethodNotAllowed', allow: ['GET', 'HEAD'] })
  return sendProblem(res, { _tag: 'RouteNotFound' })
}

// The service's server settings, so connection handling is not where the two differ.
const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error)
    if (!res.headersSent) sendProblem(res, { _tag: 'Internal' })
  })
})
server.keepAliveTimeout = 65_000
server.on('clientError', answerClientError)
server.listen(peer.config.port, peer.config.host, () => {
  const address = server.address()
  announce(typeof address === 'object' && address !== null ? address.port : peer.config.port)
})
stopOnSignals(async () => {
  server.close()
  server.closeIdleConnections()
  await peer.close()
})
