import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { readFileSync } from 'node:fs'
import { createInMemoryApiKeys, createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import {
  API_SETTING_DEFAULTS,
  createHttpServer,
  createKoaApp,
  HTTP_LIMIT_DEFAULTS,
  openApiJson,
  ROUTES,
  type KoaAppDeps,
} from '../../../adapters/koa/index.js'
import {
  GET_PET_DEPRECATION,
  IDEMPOTENCY_DEFAULTS,
  LIST_LIMITS,
  shuttingDown,
  silentLogger,
  type PetStore,
} from '../../../core/index.js'
import { downStore } from '../../support/down-store.js'
import { serve, type Client } from '../../support/http.js'
import { testConfig } from '../../support/app.js'

const KEY = 'my-secret-key-0123456789'
const auth = { Authorization: `Bearer ${KEY}` }

/** The app from a store and keys (and what else a test gives), served on a loopback port. */
const appOf = (store: PetStore, extra: Partial<KoaAppDeps> = {}): Promise<Client> =>
  serve(createKoaApp({ store, apiKeys: createInMemoryApiKeys([KEY]), ...extra }))

describe('createKoaApp from a store and keys: the defaults it answers by', () => {
  let api: Client | undefined
  afterEach(() => api?.close())

  it('serves the document an app given every interface setting serves', async () => {
    api = await appOf(createInMemoryPetStore())
    const served = await api.request({ path: '/v1/openapi.json' })
    const given = {
      basePath: '/v1',
      maxBodyBytes: 8192,
      retryAfterSeconds: 2,
      listLimits: LIST_LIMITS,
      deprecation: {
        deprecatedAt: GET_PET_DEPRECATION.defaultDeprecatedAt,
        sunsetAt: GET_PET_DEPRECATION.sunsetAt,
      },
      idempotencyPolicy: IDEMPOTENCY_DEFAULTS,
    }
    const servers = [{ url: '/v1', description: 'This service' }]
    expect(served.text).to.equal(openApiJson({ ...given, servers }))
    expect(openApiJson({ servers })).to.equal(served.text)
    expect(API_SETTING_DEFAULTS).to.deep.equal(given)
  })

  it('takes a body of 8192 bytes and refuses one byte more', async () => {
    api = await appOf(createInMemoryPetStore())
    const body = (size: number) => {
      const json = '{"name":"Rex","categoryId":1}'
      return json + ' '.repeat(size - json.length)
    }
    const create = (size: number) =>
      api?.request({
        method: 'POST',
        path: '/v1/pets',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: body(size),
      })
    expect((await create(8192))?.status).to.equal(201)
    expect((await create(8193))?.status).to.equal(413)
  })

  it("is ready when its store reads, and tells a 503's client to wait 2 s when it does not", async () => {
    api = await appOf(downStore())
    const ready = await api.request({ path: '/readyz' })
    expect(ready.status).to.equal(503)
    expect(ready.json).to.deep.include({ code: 'unavailable' })
    expect(ready.headers['retry-after']).to.equal('2')
    const listed = await api.request({ path: '/v1/pets', headers: auth })
    expect([listed.status, listed.headers['retry-after']]).to.deep.equal([503, '2'])
  })

  it('asks a readiness check given instead of the store', async () => {
    api = await appOf(createInMemoryPetStore(), { checkReadiness: () => TE.left(shuttingDown) })
    expect((await api.request({ path: '/readyz' })).status).to.equal(503)
    expect((await api.request({ path: '/healthz' })).status).to.equal(200)
  })

  it('writes the deprecation of getPet from the interface', async () => {
    api = await appOf(createInMemoryPetStore())
    const reply = await api.request({ path: '/v1/pets/1', headers: auth })
    const seconds = Math.floor(GET_PET_DEPRECATION.defaultDeprecatedAt.getTime() / 1000)
    expect(reply.headers.deprecation).to.equal(`@${seconds}`)
    expect(reply.headers.sunset).to.equal(GET_PET_DEPRECATION.sunsetAt.toUTCString())
  })
})

describe("createHttpServer without limits: the service's defaults", () => {
  it('times headers, requests and idle connections as the service does by default', () => {
    const { server } = createHttpServer(
      createKoaApp({
        store: createInMemoryPetStore(),
        apiKeys: createInMemoryApiKeys([KEY]),
      }),
    )
    const config = testConfig()
    const timeouts = [server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]
    expect(timeouts).to.deep.equal([
      HTTP_LIMIT_DEFAULTS.headersTimeoutMs,
      HTTP_LIMIT_DEFAULTS.requestTimeoutMs,
      HTTP_LIMIT_DEFAULTS.keepAliveTimeoutMs,
    ])
    expect(timeouts).to.deep.equal([
      config.headersTimeoutMs,
      config.requestTimeoutMs,
      config.keepAliveTimeoutMs,
    ])
    expect(config.maxConnections).to.equal(HTTP_LIMIT_DEFAULTS.maxConnections)
    expect([config.basePath, config.retryAfterSeconds]).to.deep.equal([
      API_SETTING_DEFAULTS.basePath,
      API_SETTING_DEFAULTS.retryAfterSeconds,
    ])
  })
})

/** Values a doc comment's `@defaultValue` may name, by the name it gives them. */
const NAMED: Readonly<Record<string, unknown>> = {
  LIST_LIMITS,
  IDEMPOTENCY_DEFAULTS,
  silentLogger,
  'Date.now': Date.now,
  ROUTES,
}
const INPUT_DEFAULTS: Readonly<Record<string, unknown>> = {
  logger: silentLogger,
  now: Date.now,
  routes: ROUTES,
}

/** Each field's `@defaultValue \`X\``, with X a number, a quoted string or a name of NAMED. */
const documentedDefaults = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/@defaultValue `([^`]+)`[^]*?readonly (\w+)\?/g)].map(
    ([, text = '', field = '']) => {
      const literal =
        /^'(.*)'$/.exec(text)?.[1] ?? (/^[\d_]+$/.test(text) ? +text.replace(/_/g, '') : undefined)
      return { field, text, value: text in NAMED ? NAMED[text] : literal }
    },
  )

describe('the defaults the doc comments give (the API reference shows them)', () => {
  const cases: ReadonlyArray<[string, Readonly<Record<string, unknown>>]> = [
    ['adapters/koa/app/api-settings.ts', API_SETTING_DEFAULTS],
    ['adapters/koa/server/http-limits.ts', HTTP_LIMIT_DEFAULTS],
    ['adapters/koa/app/koa-app-inputs.ts', INPUT_DEFAULTS],
  ]
  for (const [file, defaults] of cases)
    it(`${file}: each is the value the code takes`, () => {
      const documented = documentedDefaults(file).filter(({ value }) => value !== undefined)
      expect(documented.length).to.be.at.least(Object.keys(defaults).length - 1)
      for (const { field, text, value } of documented)
        expect(value, `${field}: ${text}`).to.equal(defaults[field])
    })
})
