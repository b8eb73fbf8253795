import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type Koa from 'koa'
import { serveAsRoot } from '../../adapters/koa/server/root-app.js'
import { openRaw } from './raw.js'

/** Serves the listener on a loopback port while `use` runs. */
export const whileServing = async <T>(
  listener: Parameters<typeof createServer>[1],
  use: (port: number) => Promise<T>,
): Promise<T> => {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return await use((server.address() as AddressInfo).port)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

/**
 * The bytes of each answer but its Date, the requests sent one after the other, each on its own
 * connection kept open until the server closes it (Connection: close): a client that half-closed
 * at once would lose an answer given after a wait, the docs page's first.
 */
export const answersOf = async (port: number, requests: ReadonlyArray<string>) => {
  const answers: string[] = []
  for (const text of requests) {
    const connection = await openRaw(port)
    connection.socket.write(text)
    await connection.closed
    answers.push(connection.received().replace(/\r\nDate: [^\r]*/, ''))
  }
  return answers
}

/**
 * Each request's answer through `app.callback()` (Koa's respond) and through `serveAsRoot` (the
 * root writer), each way on an app of its own made by `makeApp`.
 */
export const bothWays = async (makeApp: () => Promise<Koa>, requests: ReadonlyArray<string>) => {
  const viaKoa = await whileServing((await makeApp()).callback(), (p) => answersOf(p, requests))
  const viaRoot = await whileServing(serveAsRoot(await makeApp()), (p) => answersOf(p, requests))
  return { viaKoa, viaRoot }
}

/** A request as its bytes, on a connection the server closes after answering. */
export const raw = (method: string, path: string, headers: ReadonlyArray<string> = [], body = '') =>
  [`${method} ${path} HTTP/1.1`, 'Host: x', 'Connection: close', ...headers, '', body].join('\r\n')
