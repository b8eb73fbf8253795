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
