import type { AppContext } from '../request/app-state.js'

/** What koa-mount leaves on the context: the prefix it took off the path, as the host wrote it. */
type Mounted = { readonly mountPath?: string }

/**
 * The path in front of the app's own paths in the URLs a client uses: the prefix the host
 * declares (`publicPrefix`: a proxy or a rewrite took it off before the app saw the request),
 * then koa-mount's `ctx.mountPath`, then the base path. Every link the app hands out starts with
 * it, so that it resolves where the app is mounted.
 */
export const publicBaseOf = (publicPrefix: string, basePath: string) => {
  const unmounted = publicPrefix + basePath
  return (ctx: AppContext): string => {
    const mountPath = (ctx as Mounted).mountPath
    // Unmounted (the service, a host without koa-mount): the string made once, nothing new.
    return mountPath === undefined ? unmounted : publicPrefix + mountPath + basePath
  }
}

/**
 * `make(base)` made once for each public base. The bases are few and fixed by the host's code
 * (its mounts), never by a request, so the map stays as small as the host's mounts.
 */
export const perPublicBase = <A>(make: (base: string) => A) => {
  const made = new Map<string, A>()
  return (base: string): A => {
    let value = made.get(base)
    if (value === undefined) {
      value = make(base)
      made.set(base, value)
    }
    return value
  }
}

/** A declared prefix is a path without a trailing slash (`/shop`), or empty. */
export const checkPublicPrefix = (prefix: string): string => {
  if (prefix !== '' && !/^(\/[^/?#\s]+)+$/.test(prefix))
    throw new Error(
      `publicPrefix must be empty or a path such as /shop, without a trailing slash: ${JSON.stringify(prefix)}`,
    )
  return prefix
}
