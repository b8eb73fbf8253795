import { expect } from 'chai'
import Koa from 'koa'
import type { AddressInfo } from 'node:net'
import { createHttpServer } from '../../../../adapters/koa/index.js'
import { composerOf, koaShapeDifferences } from '../../../../adapters/koa/koa-internals.js'
import { composeApp } from '../../../../apps/server/compose.js'
import { silentLogger } from '../../../../core/index.js'
import { auth, testConfig } from '../../../support/app.js'
import { storageFor } from '../../../support/backends.js'
import { DEFAULT_LIMITS, send } from '../../../support/http.js'

const captureLogger = () => {
  const lines: Array<{ level: string; fields: object; message: string }> = []
  const log = (level: string) => (fields: object, message: string) =>
    void lines.push({ level, fields, message })
  return { lines, logger: { info: log('info'), warn: log('warn'), error: log('error') } }
}

/**
 * The service's app as another Koa might build it: its compose runs the middleware a turn later
 * (so not as koa-compose does), and `ctx.body = null` leaves no mark on the response.
 */
const reshapedApp = async () => {
  const config = testConfig()
  const app = composeApp(config, await storageFor('in-memory'), config.apiKeys, silentLogger)
  const compose = composerOf(app)
  if (compose === undefined) throw new Error('this Koa has no app.compose')
  Object.assign(app, {
    compose: (middleware: ReadonlyArray<unknown>) => {
      const run = compose(middleware)
      return (ctx: unknown) => Promise.resolve().then(() => run(ctx))
    },
  })
  Object.defineProperty(app.response, '_explicitNullBody', { get: () => undefined, set: () => {} })
  return app
}

describe("Koa's internals: one seam, checked once at start", () => {
  it('finds the installed Koa, @koa/router and node:http as the root writer reads them', () => {
    expect(koaShapeDifferences(new Koa())).to.deep.equal([])
  })

  it('names each field that differs', async () => {
    expect(koaShapeDifferences(await reshapedApp())).to.deep.equal([
      'app.compose',
      'response._explicitNullBody',
    ])
  })

  it('serves through app.callback() when Koa differs, says so in one log line, and answers the same', async () => {
    const { lines, logger } = captureLogger()
    const { server } = createHttpServer(await reshapedApp(), DEFAULT_LIMITS, logger)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    try {
      expect(lines).to.deep.equal([
        {
          level: 'warn',
          fields: { fields: ['app.compose', 'response._explicitNullBody'] },
          message: 'koa internals differ: serving through app.callback()',
        },
      ])
      const created = await send(port, {
        method: 'POST',
        path: '/v1/pets',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{"name":"Rex","categoryId":1}',
      })
      expect([created.status, created.headers.location]).to.deep.equal([201, '/v1/pets/1'])
      const listed = await send(port, { path: '/v1/pets', headers: auth })
      expect([listed.status, listed.json]).to.deep.equal([200, [created.json]])
      const missing = await send(port, { path: '/v1/nothing', headers: auth })
      expect([missing.status, (missing.json as { code: string }).code]).to.deep.equal([
        404,
        'not_found',
      ])
      expect((await send(port, { path: '/v1/pets' })).status).to.equal(401)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
