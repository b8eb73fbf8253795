import { expect } from 'chai'
import { auth } from '../support/app.js'
import { openRaw, type RawConnection } from '../support/raw.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

describe('service process: a flood of connections under a low descriptor limit', function () {
  this.timeout(60_000)
  let service: ServiceProcess
  const held: RawConnection[] = []
  before(async () => {
    service = await startService({}, 20_000, { openFilesLimit: 256 })
  })
  after(async () => {
    held.splice(0).forEach((c) => c.socket.destroy())
    await service.stop()
  })

  it('still answers /healthz and a fresh client, cleanly, while 300 idle and slowloris connections hold on', async () => {
    for (let i = 0; i < 300; i++) {
      const conn = await openRaw(service.port)
      conn.socket.write(
        i % 3 === 0
          ? 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '
          : 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      )
      held.push(conn)
    }
    await new Promise((r) => setTimeout(r, 300))
    for (let round = 0; round < 5; round++) {
      const health = await service.request({ path: '/healthz' })
      expect([200, 503]).to.include(health.status)
      expect(health.headers['content-type']).to.equal('application/json')
      const created = await service.request({
        method: 'POST',
        path: '/v1/pets',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{"name":"Rex","categoryId":1}',
      })
      expect([201, 503]).to.include(created.status)
      expect(created.headers['content-type']).to.equal('application/json')
    }
    // With idle connections to evict, the fresh ones got through rather than a refusal.
    expect((await service.request({ path: '/healthz' })).status).to.equal(200)
    expect(service.process.exitCode).to.equal(null)
    expect(service.output.join('\n')).to.not.match(/EMFILE|level":50|level":60/)
    expect(service.output.join('\n')).to.match(/MAX_CONNECTIONS lowered to fit/)
  })
})
