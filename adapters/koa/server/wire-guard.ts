import { answerError } from '../response/answer/index.js'
import { isServedVersion, VERSION_REFUSAL } from './http-version.js'
import { isHostValue } from './host-value.js'
import type { WireListener } from './root-app.js'

/** Whether a raw header name is `name` (given in lower case), in the usual spellings first. */
const isNamed = (raw: string, name: string, usual: string): boolean =>
  raw.length === name.length && (raw === usual || raw.toLowerCase() === name)

/**
 * The version first: a request of another version than HTTP/1.1 or 1.0 is 400, and closes its
 * connection (checked here, not in a layer of its own, as every request passes this one).
 * Exactly one Host on HTTP/1.1 (RFC 9112 §3.2), at most one on 1.0, and a valid value. Node's
 * own check answers without a body and lets a repeated Host through, so the server turns it off
 * and checks here.
 * At most one Authorization and one Content-Type too (singleton fields, RFC 9110 §5.3): Node
 * keeps the first and drops the others, so which key a request used, or how its body is read,
 * would depend on the order of its lines.
 */
export const guardHeaders =
  (listener: WireListener): WireListener =>
  (req, res, inviteBody, markKeyed) => {
    if (!isServedVersion(req)) return answerError(res, 'bad_request', VERSION_REFUSAL)
    let hosts = 0
    let validHost = true
    let keys = 0
    let types = 0
    const raw = req.rawHeaders
    // The length first: lower-casing a name allocates a string.
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] as string
      if (isNamed(name, 'host', 'Host')) {
        hosts++
        validHost = isHostValue(raw[i + 1] as string)
      } else if (isNamed(name, 'authorization', 'Authorization')) keys++
      else if (isNamed(name, 'content-type', 'Content-Type')) types++
    }
    if (hosts > 1 || (hosts === 0 && req.httpVersion === '1.1'))
      return answerError(res, 'bad_request', 'the request must carry exactly one Host header')
    if (!validHost)
      return answerError(res, 'bad_request', 'the Host header must be a host and optional port')
    if (keys > 1)
      return answerError(
        res,
        'bad_request',
        'the request must carry at most one Authorization header',
      )
    if (types > 1)
      return answerError(
        res,
        'bad_request',
        'the request must carry at most one Content-Type header',
      )
    return listener(req, res, inviteBody, markKeyed)
  }

/**
 * Chunked is the one transfer coding a request may use: 501 for any other (RFC 9112 §6.1).
 * Node's parser reads `gzip, chunked` as plain chunked, and would hand the app a body that is
 * still gzipped.
 */
export const guardCodings =
  (listener: WireListener): WireListener =>
  (req, res, inviteBody, markKeyed) => {
    const codings = req.headers['transfer-encoding']
    if (codings !== undefined && codings.trim().toLowerCase() !== 'chunked')
      return answerError(res, 'not_implemented', 'chunked is the only transfer coding accepted')
    return listener(req, res, inviteBody, markKeyed)
  }
