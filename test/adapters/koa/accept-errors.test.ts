import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { expect } from 'chai'
import { send } from '../../support/http.js'
import { openRaw, type RawConnection } from '../../support/raw.js'

/**
 * The server as an embedder builds it (compiled, `npm run build` first), with a connection cap
 * far above a descriptor limit of 128 (the ESM loader opens many module files at once, so 64 ran
 * out while importing), so that accept(2) itself fails with EMFILE. (The service
 * lowers its cap to fit the limit at start; an embedder may not.)
 */
const SERVER = `
import { createHttpServer } from './dist/adapters/koa/index.js'
const line = (msg) => (fields) => console.log(JSON.stringify({ ...fields, msg }))
const logger = { info: () => {}, error: () => {}, warn: (fields, msg) => line(msg)(fields) }
const limits = { maxConnections: 1000, headersTimeoutMs: 10000, requestTimeoutMs: 30000, keepAliveTimeoutMs: 65000 }
const { server } = createHttpServer((req, res) => res.end('ok'), limits, logger)
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })))
`

describe('HTTP server: out of descriptors at accept', function () {
  this.timeout(30_000)
  let child: ChildProcess
  const output: string[] = []
  const held: RawConnection[] = []
  let port = 0
  before(async () => {
    child = spawn(
      'sh',
      ['-c', `ulimit -n 128 && exec "$0" --input-type=module -e "$1"`, process.execPath, SERVER],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${output.join('\n')}`)))
      createInterface({ input: child.stdout! }).on('line', (text) => {
        output.push(text)
        const listening = /^\{"port":(\d+)\}$/.exec(text)
        if (listening) resolve(Number(listening[1]))
      })
    })
  })
  after(() => {
    held.splice(0).forEach((c) => c.socket.destroy())
    child.kill('SIGKILL')
  })

  it('closes the connections it has no descriptor for at once, stays up, and serves again once descriptors are free', async () => {
    for (let i = 0; i < 160; i++) held.push(await openRaw(port))
    // libuv accepts each one it cannot keep on a spare descriptor and closes it: no answer.
    const deadline = Date.now() + 5000
    const dropped = () => held.filter((c) => c.socket.destroyed || c.socket.readableEnded)
    while (dropped().length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50))
    expect(dropped().length, 'connections past the descriptor limit closed').to.be.above(0)
    expect(dropped().length).to.be.below(160)
    expect(dropped().every((c) => c.received() === '')).to.equal(true)
    held.splice(0).forEach((c) => c.socket.destroy())
    await new Promise((r) => setTimeout(r, 200))
    expect(child.exitCode, output.join('\n')).to.equal(null)
    const reply = await send(port, { path: '/' })
    expect(reply.status).to.equal(200)
  })
})
