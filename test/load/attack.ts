import { request, type Agent } from 'node:http'
import type { Socket } from 'node:net'
import { expect } from 'chai'
import { startHeapService, stopAgent, type HeapService } from './heap-walk.js'

/** One keyed request; its status (0 when the connection failed) and how long it took. */
export const timedCall = (
  port: number,
  key: string,
  options: { agent?: Agent | false; method?: string; path?: string; accept?: string } = {},
): Promise<{ status: number; ms: number }> =>
  new Promise((resolve) => {
    const started = Date.now()
    const { agent = false, method = 'GET', path = '/v1/pets?limit=1', accept } = options
    const body = method === 'POST' ? '{"name":"Rex","categoryId":1}' : undefined
    const headers: Record<string, string> = { authorization: `Bearer ${key}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (accept !== undefined) headers.accept = accept
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) =>
      res
        .resume()
        .on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - started })),
    )
    req.on('error', () => resolve({ status: 0, ms: Date.now() - started }))
    req.setTimeout(5000, () => req.destroy())
    req.end(body)
  })

/** The attack is over: the service still runs, and answers another key within 1 s. */
export const expectAliveAndAnswering = async (service: HeapService, key: string) => {
  expect(service.child.exitCode, 'the service still runs').to.equal(null)
  const { status, ms } = await timedCall(service.port, key)
  expect(status, 'another key is answered').to.equal(200)
  expect(ms, 'within 1 s').to.be.below(1000)
}

export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/**
 * A suite's attack: `start` runs the service with a capped heap, `sockets` holds the attacker's
 * connections; after the suite every socket is destroyed, the service stopped and the agent closed.
 */
export const underAttack = () => {
  let service: HeapService | undefined
  const sockets: Socket[] = []
  after(async () => {
    sockets.forEach((s) => s.destroy())
    if (service?.child.connected === true) await service.stop()
    stopAgent()
  })
  const start = async (...args: Parameters<typeof startHeapService>): Promise<HeapService> =>
    (service = await startHeapService(...args))
  return { sockets, start }
}
