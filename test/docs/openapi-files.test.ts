import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { parse as parseYaml } from 'yaml'
import { API_VERSION } from '../../adapters/koa/app/openapi/document.js'
import { loadConfig } from '../../apps/server/config.js'
import { auth, startTestApi } from '../support/app.js'
import {
  defaultOpenApiText,
  OPENAPI_FILES,
  openApiFileTexts,
  parseExact,
} from '../support/openapi-files.js'

describe('the committed OpenAPI document (docs/openapi.json, docs/openapi.yaml)', () => {
  it('is what the code builds: `npm run openapi:write` writes it again', async () => {
    for (const [path, text] of Object.entries(await openApiFileTexts()))
      expect(
        readFileSync(path, 'utf8') === text,
        `${path} is stale: npm run openapi:write`,
      ).to.equal(true)
  })

  it('holds the same document in JSON and in YAML, the int64 bounds exact in both', () => {
    const json = parseExact(readFileSync(OPENAPI_FILES.json, 'utf8'))
    const yaml = parseYaml(readFileSync(OPENAPI_FILES.yaml, 'utf8'), { intAsBigInt: true })
    expect(yaml).to.deep.equal(json)
    expect(readFileSync(OPENAPI_FILES.yaml, 'utf8')).to.include('maximum: 9223372036854775807')
  })

  it('is the document the service serves, whose first server is one that answers', async () => {
    const api = await startTestApi()
    try {
      const served = await api.request({ path: '/v1/openapi.json' })
      expect(served.text).to.equal(defaultOpenApiText())
      const { servers } = served.json as { servers: Array<{ url: string; description: string }> }
      expect(servers.map((s) => s.description)).to.deep.equal([
        'This service',
        'Production',
        'Staging',
      ])
      const first = new URL(servers[0]?.url ?? '', 'http://127.0.0.1/v1/openapi.json').pathname
      expect(first).to.equal('/v1')
      expect((await api.request({ path: `${first}/pets`, headers: auth })).status).to.equal(200)
    } finally {
      await api.close()
    }
  })

  it("says in info.version the API's version, as http.md does, whose major the base path names", () => {
    const { info } = parseExact(readFileSync(OPENAPI_FILES.json, 'utf8')) as {
      info: { version: string }
    }
    expect(info.version).to.equal(API_VERSION)
    const page = readFileSync('docs/http.md', 'utf8')
    expect(page).to.include(
      `The document's \`info.version\`, \`${API_VERSION}\`, is the version of the HTTP API`,
    )
    const config = loadConfig({})
    expect(config._tag === 'Right' && config.right.basePath).to.equal(
      `/v${API_VERSION.split('.')[0]}`,
    )
    expect(page).to.include('`animal-store` in `package.json`')
  })
})
