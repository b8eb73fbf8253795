// The ceiling: bare node:http, hand-written checks, JSON.parse/JSON.stringify, no dependency and
// nothing from the service. Adapted from ../shared/perf/ceiling-node-http.cjs (plus GET by id).
import http from 'node:http'
import { makePets, STATUSES, API_KEY, LIMIT_DEFAULT, LIMIT_MAX } from './store.mjs'

const pets = makePets()
const AUTH = 'Bearer ' + API_KEY
const JSON_CT = 'application/json; charset=utf-8'

function send(res, code, body) {
  const s = JSON.stringify(body)
  res.writeHead(code, { 'content-type': JSON_CT, 'content-length': Buffer.byteLength(s) })
  res.end(s)
}

function list(req, res, qs) {
  const q = new URLSearchParams(qs)
  let limit = LIMIT_DEFAULT
  const l = q.get('limit')
  if (l !== null) {
    limit = Number(l)
    if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX)
      return send(res, 400, { error: 'invalid limit' })
  }
  const status = q.get('status')
  if (status !== null && !STATUSES.includes(status))
    return send(res, 400, { error: 'invalid status' })
  const out = []
  for (let i = 0; i < pets.length && out.length < limit; i++) {
    const p = pets[i]
    if (status === null || p.status === status) out.push(p)
  }
  send(res, 200, out)
}

function get(res, idText) {
  const id = /^[0-9]{1,19}$/.test(idText) ? Number(idText) : 0
  const pet = id >= 1 ? pets[id - 1] : undefined
  if (pet === undefined) return send(res, 404, { error: 'not found' })
  send(res, 200, pet)
}

function create(req, res) {
  const ct = req.headers['content-type']
  if (!ct || !ct.startsWith('application/json')) {
    req.resume()
    return send(res, 415, { error: 'unsupported media type' })
  }
  let data = ''
  req.setEncoding('utf8')
  req.on('data', (c) => {
    data += c
    if (data.length > 1e6) req.destroy()
  })
  req.on('end', () => {
    let b
    try {
      b = JSON.parse(data)
    } catch {
      return send(res, 400, { error: 'invalid json' })
    }
    if (
      b === null ||
      typeof b !== 'object' ||
      typeof b.name !== 'string' ||
      b.name.length === 0 ||
      !Number.isInteger(b.categoryId) ||
      !STATUSES.includes(b.status)
    )
      return send(res, 400, { error: 'validation failed' })
    const pet = { id: pets.length + 1, name: b.name, categoryId: b.categoryId, status: b.status }
    pets.push(pet)
    send(res, 201, pet)
  })
}

http
  .createServer((req, res) => {
    if (req.headers.authorization !== AUTH) {
      req.resume()
      return send(res, 401, { error: 'unauthorized' })
    }
    const url = req.url
    const qi = url.indexOf('?')
    const path = qi === -1 ? url : url.slice(0, qi)
    if (path === '/v1/pets') {
      if (req.method === 'GET') return list(req, res, qi === -1 ? '' : url.slice(qi + 1))
      if (req.method === 'POST') return create(req, res)
    } else if (path.startsWith('/v1/pets/') && req.method === 'GET') {
      return get(res, path.slice('/v1/pets/'.length))
    }
    req.resume()
    send(res, 404, { error: 'not found' })
  })
  .listen(Number(process.env.PORT || 3001), '127.0.0.1')
