import type { Socket } from 'node:net'

/**
 * Connections that have carried a request with a valid key. The app marks them when it admits
 * such a request; the server's connection cap keeps them longer than anonymous ones. Weak: a
 * closed connection leaves nothing behind.
 */
const keyed = new WeakSet<Socket>()

export const markKeyed = (socket: Socket): void => void keyed.add(socket)

export const isKeyed = (socket: Socket): boolean => keyed.has(socket)
