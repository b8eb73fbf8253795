import { expect } from 'chai'
import { startService } from '../support/service-process.js'

const listeningOf = (output: ReadonlyArray<string>) =>
  JSON.parse(output.find((line) => line.includes('"msg":"listening"')) ?? '{}') as {
    host?: unknown
    port?: unknown
  }

describe('the listening line names the address the service bound', function () {
  this.timeout(30_000)

  for (const [host, expected] of [
    ['127.0.0.1', ['127.0.0.1']],
    // Unset: every interface, as docs/operations.md says (IPv4 only where the machine has no IPv6).
    ['', ['::', '0.0.0.0']],
  ] as const)
    it(`HOST=${JSON.stringify(host)}: host is ${expected.join(' or ')}`, async () => {
      const service = await startService({ HOST: host })
      try {
        const line = listeningOf(service.output)
        expect(expected).to.include(line.host)
        expect(line.port).to.equal(service.port)
      } finally {
        expect(await service.stop()).to.equal(0)
      }
    })
})
