import type { IncomingHttpHeaders } from 'node:http'

/** `[2001:db8::1]:4711`, `"[2001:db8::1]"`, `192.0.2.1:80`: the address alone. */
const addressOf = (node: string): string => {
  const unquoted = node.trim().replace(/^"(.*)"$/, '$1')
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(unquoted)
  if (bracketed !== null) return bracketed[1] as string
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(unquoted)
  return v4WithPort === null ? unquoted : (v4WithPort[1] as string)
}

/** Every value of a header, joined as one list (Node joins repeated X-Forwarded-For already). */
const valuesOf = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? value.join(',') : (value ?? '')

/** The `for=` of each element of RFC 7239's `Forwarded`, in order (a missing one is ''). */
const forwardedNodes = (header: string): string[] =>
  header.split(',').map((element) => {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=')
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for')
        return addressOf(pair.slice(eq + 1))
    }
    return ''
  })

/**
 * The addresses proxies reported, the client's first and the nearest proxy's peer last:
 * `Forwarded` when a request has it (the standard), else `X-Forwarded-For`.
 */
export const forwardedFor = (headers: IncomingHttpHeaders): string[] => {
  const forwarded = valuesOf(headers.forwarded)
  if (forwarded !== '') return forwardedNodes(forwarded)
  const xff = valuesOf(headers['x-forwarded-for'])
  return xff === '' ? [] : xff.split(',').map(addressOf)
}
