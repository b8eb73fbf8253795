import * as E from 'fp-ts/lib/Either.js'
import { expect } from 'chai'
import { loadConfig } from '../../apps/server/config.js'
import { startService } from '../support/service-process.js'
import { send } from '../support/http.js'

const errorsOf = (env: Record<string, string>) => {
  const loaded = loadConfig(env)
  return E.isLeft(loaded) ? loaded.left : []
}

describe('configuration: metrics and CORS', () => {
  it('has metrics and CORS off by default, metrics on loopback when enabled', () => {
    const loaded = loadConfig({})
    if (E.isLeft(loaded)) throw new Error(loaded.left.join())
    expect(loaded.right.metricsPort).to.equal(undefined)
    expect(loaded.right.metricsHost).to.equal('127.0.0.1')
    expect(loaded.right.corsOrigins).to.deep.equal([])
  })

  it('reads METRICS_PORT, METRICS_HOST and CORS_ORIGINS', () => {
    const loaded = loadConfig({
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      CORS_ORIGINS:
        'https://app.example, http://localhost:3000, http://a.example:443, https://b:65535, http://[::1]:3000, http://my_app.local:8080, http://xn--bcher-kva.example',
    })
    if (E.isLeft(loaded)) throw new Error(loaded.left.join())
    expect(loaded.right.metricsPort).to.equal(9464)
    expect(loaded.right.metricsHost).to.equal('0.0.0.0')
    expect(loaded.right.corsOrigins).to.deep.equal([
      'https://app.example',
      'http://localhost:3000',
      'http://a.example:443',
      'https://b:65535',
      'http://[::1]:3000',
      'http://my_app.local:8080',
      'http://xn--bcher-kva.example',
    ])
  })

  it('refuses a bad port and origins that a browser never sends', () => {
    expect(errorsOf({ METRICS_PORT: '70000' }).join()).to.include('METRICS_PORT')
    expect(errorsOf({ METRICS_PORT: 'x' }).join()).to.include('METRICS_PORT')
    for (const origin of [
      '*',
      'https://app.example/',
      'app.example',
      'https://app.example/path',
      'ftp://a.b',
      'https://app.example:99999', // no such port
      'https://app.example:0',
      'https://app.example:08443', // a browser writes 8443
      'https://app.example:443', // a browser leaves the default port out
      'http://app.example:80',
      'https://App.example', // a browser writes the host in lower case
      'http://[0:0:0:0:0:0:0:1]:3000', // and an IPv6 address in its shortest form
      'http://bücher.example', // and a name in punycode
      'https://user@app.example',
      'null',
    ])
      expect(errorsOf({ CORS_ORIGINS: origin }).join(), origin).to.include('CORS_ORIGINS')
  })

  it('serves /metrics on METRICS_PORT in the service process', async function () {
    this.timeout(30_000)
    const service = await startService({ METRICS_PORT: '0' })
    try {
      const line = service.output.find((l) => l.includes('"msg":"metrics listening"')) ?? '{}'
      const { metricsPort, metricsHost } = JSON.parse(line) as {
        metricsPort: number
        metricsHost: string
      }
      expect(metricsHost).to.equal('127.0.0.1')
      await service.request({ path: '/v1/pets' })
      const reply = await send(metricsPort, { path: '/metrics' })
      expect(reply.status).to.equal(200)
      expect(reply.text).to.match(
        /^animal_store_http_requests_total\{route="none",method="GET",status="401"\} 1$/m,
      )
    } finally {
      await service.stop()
    }
  })
})
