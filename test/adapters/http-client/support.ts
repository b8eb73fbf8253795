import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, type ClientOptions } from '../../../adapters/http-client/index.js'
import { TEST_KEY } from '../../support/app.js'

/** A client of the service on `port`, counting the requests it sends (each attempt is one). */
export const countingClient = (port: number, options: Partial<ClientOptions> = {}) => {
  const sent: string[] = []
  const client = createClient({
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: TEST_KEY,
    budget: { baseDelayMs: 20 },
    fetch: (input, init) => {
      sent.push(`${init?.method ?? 'GET'} ${String(input)}`)
      return globalThis.fetch(input, init)
    },
    ...options,
  })
  return { client, sent }
}

/** The rejection of a promise expected to reject. */
export const rejectionOf = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the call to reject')
}

/** A loopback server of the test's own, answering every request with `handler`. */
export const serve = async (handler: RequestListener): Promise<{ server: Server; url: string }> => {
  const server = createServer(handler)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }
}

/** Closes a server of `serve`, its open connections included. */
export const closeServer = async (server: Server | undefined): Promise<void> => {
  if (server === undefined) return
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
}
