import type Koa from 'koa'
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'
import { normalAddress } from './address-text.js'
import type { AppState } from './app-state.js'
import { defineRequestIp } from '../koa-internals.js'
import { forwardedForFromRight, xForwardedForFromRight } from './forwarded.js'
import { trustedOf, type Trusted, type TrustProxy } from './proxy-trust.js'

/** `::ffff:192.0.2.1` is how Node shows an IPv4 peer on a dual-stack socket. */
export const unmapIpv4 = (address: string): string =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address

export type ClientAddress = {
  /** The client's address for a request, by the forwarding header of trusted proxies. */
  readonly of: (req: IncomingMessage) => string
  /** Whether a connection's peer is a trusted proxy (its connections carry many clients). */
  readonly isProxy: (peer: string) => boolean
}

/**
 * `X-Forwarded-For` walked as proxy-addr walks it: the peer, then each address from the right
 * while the hop that reported it is trusted; the last is the first untrusted. An entry that is
 * not an IP address is never trusted and stops the walk at the hop that wrote it. Read from the
 * right only as far as the walk goes: a header of thousands of entries costs those walked.
 */
const viaXForwardedFor = (req: IncomingMessage, trusted: Trusted): string => {
  let [before, last] = ['', req.socket?.remoteAddress ?? '']
  let hop = 0
  for (const written of xForwardedForFromRight(req.headers['x-forwarded-for'])) {
    const address = normalAddress(last)
    if (address === undefined || !trusted(address, hop++)) break
    ;[before, last] = [last, written]
  }
  return normalAddress(last) ?? normalAddress(before) ?? ''
}

/** RFC 7239's `Forwarded` (its `for=`), walked the same way. */
const viaForwarded = (req: IncomingMessage, trusted: Trusted): string => {
  let client = normalAddress(req.socket?.remoteAddress ?? '') ?? ''
  let hop = 0
  for (const reported of forwardedForFromRight(req.headers.forwarded)) {
    if (!trusted(client, hop++)) break
    const next = normalAddress(reported)
    if (next === undefined) break
    client = next
  }
  return client
}

/**
 * The client address of a request: the peer, or, behind trusted proxies, the first untrusted
 * address of the one header they write, read from the right; the other header is ignored, as a
 * client may write it.
 */
export const clientAddress = (trust: TrustProxy | undefined): ClientAddress => {
  if (trust === undefined)
    return { of: (req) => unmapIpv4(req.socket.remoteAddress ?? ''), isProxy: () => false }
  const trusted = trustedOf(trust)
  const walk = trust.header === 'forwarded' ? viaForwarded : viaXForwardedFor
  return {
    of: (req) => walk(req, trusted),
    isProxy: (peer) => trusted(normalAddress(peer) ?? '', 0),
  }
}

/**
 * The client address of a request to this app, by the app's own rules (its `trustProxy`), from
 * the request's state and Node's request: two arguments, so that `ctx.ip`'s getter builds nothing.
 */
export type ClientOf = (state: AppState, req: IncomingMessage) => string

/** Worked out when first asked, and kept in the request's state. */
export const clientOfRequests =
  (address: ClientAddress): ClientOf =>
  (state, req) =>
    (state.clientAddress ??= address.of(req))

type RequestWithContext = {
  readonly req: IncomingMessage
  readonly ctx: { readonly state: AppState }
}

/**
 * `ctx.ip` (and `ctx.request.ip`) becomes the client address by these rules: Koa's own
 * `app.proxy` knows only a hop count of `X-Forwarded-For`. Only where the app is the root: a
 * host that mounts it (koa-mount) runs it on the host's context, whose `ctx.ip` stays the
 * host's, so the app's own middleware asks `clientOf` instead.
 */
export const useClientAddress = (app: Koa<never>, clientOf: ClientOf): void => {
  defineRequestIp(app, {
    get(this: RequestWithContext) {
      return clientOf(this.ctx.state, this.req)
    },
    set(this: RequestWithContext, value: string) {
      this.ctx.state.clientAddress = value
    },
  })
}
