import { isIPv6 } from 'node:net'

/** A port of 0 to 65535, its leading zeros aside; empty too, as RFC 3986 allows. */
const PORT =
  '0*(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])?'

/**
 * `uri-host [ ":" port ]` (RFC 9112 §3.2, RFC 3986 §3.2.2): an IP literal in brackets or a
 * reg-name (unreserved, %-escapes, sub-delims), possibly empty. What brackets hold is read
 * further only when there are brackets: a name or an IPv4 address, the usual Host, costs this
 * one test.
 */
const HOST_VALUE = new RegExp(
  `^(?:\\[[0-9A-Za-z:._~!$&'()*+,;=-]+\\]|(?:[0-9A-Za-z._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::${PORT})?$`,
)

/** RFC 3986's IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ), in any case. */
const IP_FUTURE = /^[vV][0-9A-Fa-f]+\.[0-9A-Za-z:._~!$&'()*+,;=-]+$/

/** What brackets hold: an IPv6 address (the characters allowed exclude a zone id) or IPvFuture. */
const isIpLiteral = (literal: string): boolean => isIPv6(literal) || IP_FUTURE.test(literal)

/**
 * Whether a Host value is a host and optional port. Node checks none of it, and a value like
 * `a, b` would reach Koa's `ctx.host` as two hosts.
 */
export const isHostValue = (value: string): boolean =>
  HOST_VALUE.test(value) &&
  (!value.startsWith('[') || isIpLiteral(value.slice(1, value.indexOf(']'))))
