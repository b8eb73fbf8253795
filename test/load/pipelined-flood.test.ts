import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'chai'
import { LIST_LIMITS } from '../../core/index.js'
import { TEST_KEY } from '../support/app.js'
import { underAttack } from './attack.js'
import { fillWorstCase } from './heap-walk.js'

/**
 * Issue 33's first scenario, scaled to CI: a read key's clients pipeline listings of the largest
 * page on many connections and read nothing. The pets have the longest names, so the answers,
 * were they all carried out, would take far more than the capped heap.
 */
const CONNECTIONS = 90
const PIPELINED = 65
const PAGE = `GET /v1/pets?limit=${LIST_LIMITS.max} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`
const MB = 2 ** 20

/** A connection that sends `requests` and reads nothing. */
const hostile = (port: number, requests: string): Socket => {
  const socket = connect({ port, host: '127.0.0.1' })
  socket.pause()
  socket.on('error', () => {})
  socket.write(requests)
  return socket
}

/** A client that pipelines `n` listings and reads them all; how long the last one took. */
const pipelining = (port: number, n: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect({ port, host: '127.0.0.1' })
    let text = ''
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1')
      if ((text.match(/HTTP\/1\.1 200 /g)?.length ?? 0) < n || !/\]$/.test(text)) return
      socket.destroy()
      resolve(Date.now() - started)
    })
    socket.on('error', reject)
    socket.setTimeout(10_000, () => reject(new Error(`answers so far: ${text.slice(0, 200)}`)))
    socket.write(PAGE.repeat(n))
  })

/** Resolves once a health check on a fresh connection is answered. */
const settled = (port: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.once('data', () => {
      socket.destroy()
      resolve()
    })
    socket.on('error', reject)
    socket.setTimeout(60_000, () => reject(new Error('the flood was never taken in')))
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
  })

describe('pipelined listings that are never read (capped heap)', function () {
  this.timeout(120_000)
  const { sockets, start } = underAttack()

  it('keep the service alive within its heap, and a pipelining client answered promptly', async () => {
    const service = await start({ API_KEYS: TEST_KEY, RATE_LIMIT: 'off' }, 128)
    expect(await fillWorstCase(service.port, TEST_KEY, 1000)).to.equal(1000)
    const before = await service.heapUsed()
    for (let i = 0; i < CONNECTIONS; i++)
      sockets.push(hostile(service.port, PAGE.repeat(PIPELINED)))
    // Connections are accepted in order: once a later one is answered, the flood is all in.
    await settled(service.port)
    await sleep(1000)
    expect(service.child.exitCode, 'still running').to.equal(null)
    const during = await service.heapUsed()
    console.log(`      heap held by the flood: ${((during - before) / MB).toFixed(1)} MB`)
    // Far below the 96 MB the heap keeps for everything but the pets.
    expect((during - before) / MB).to.be.below(48)
    // As prompt as four listings asked one after the other (a loaded machine slows both).
    const one = await pipelining(service.port, 1)
    const four = await pipelining(service.port, 4)
    console.log(`      one listing: ${one} ms; four pipelined: ${four} ms`)
    expect(four).to.be.below(4 * one + 2000)
  })
})
