import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import type { Browser } from 'playwright-core'
import { TEST_KEY, startTestApi, type TestApi } from '../../support/app.js'
import { launchChromium } from '../../support/browser.js'
import { bundleClient } from './bundle.js'

/** Runs in the page: creates two pets, lists every page, and fails once without a key. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>client</title>
<script type="module">
import { createClient } from '/client.js'
window.run = async (baseUrl, apiKey) => {
  const client = createClient({ baseUrl, apiKey })
  const created = [
    await client.createPet({ name: 'Rex', categoryId: 9223372036854775807n }),
    await client.createPet({ name: 'Tess', categoryId: 9007199254740993n, status: 'sold' }),
  ]
  const pages = []
  for await (const page of client.pages({ limit: 1 })) pages.push(page.map((p) => p.name))
  const stranger = createClient({ baseUrl, apiKey: 'not-a-key-0123456789' })
  const refused = await stranger.listPets().catch((e) => [e.code, e.status].join(' '))
  const show = (p) => [String(p.id), p.name, String(p.categoryId), p.status ?? '-'].join(' ')
  return { created: created.map(show), pages, refused }
}
// From an origin the service does not list: the browser refuses the answer.
window.unlisted = async (baseUrl, apiKey) => {
  const client = createClient({ baseUrl, apiKey, budget: { attempts: 1 } })
  const failed = (e) => [e.code, e.last.code, e.last.message].join(': ')
  return client.listPets().then(() => 'answered', failed)
}
window.ready = true
</script>`

/**
 * The built client in headless Chromium (Debian's), loaded from a page on one loopback origin
 * and calling the service on another through its CORS allow-list.
 */
describe('the client in a browser, across origins', function () {
  this.timeout(90_000)
  let pages: Server | undefined
  let api: TestApi | undefined
  let browser: Browser | undefined

  before(async function () {
    browser = await launchChromium(this)
    const { code } = await bundleClient()
    pages = createServer((req, res) => {
      const script = req.url === '/client.js'
      res.writeHead(200, { 'Content-Type': script ? 'text/javascript' : 'text/html' })
      res.end(script ? code : PAGE)
    })
    await new Promise<void>((done) => pages?.listen(0, '127.0.0.1', done))
    const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`
    api = await startTestApi({ env: { CORS_ORIGINS: origin } })
  })
  after(async () => {
    await browser?.close()
    await api?.close()
    await new Promise((done) => (pages === undefined ? done(undefined) : pages.close(done)))
  })

  it('creates pets with exact ids, lists every page, and reads a refusal', async () => {
    const page = await (browser as Browser).newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`http://127.0.0.1:${(pages?.address() as AddressInfo).port}/`)
    await page.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true)
    const result = await page.evaluate(
      ([base, key]) =>
        (globalThis as unknown as { run: (b: string, k: string) => Promise<unknown> }).run(
          base,
          key,
        ),
      [`http://127.0.0.1:${api?.port}/v1`, TEST_KEY] as const,
    )
    expect(result).to.deep.equal({
      created: ['1 Rex 9223372036854775807 -', '2 Tess 9007199254740993 sold'],
      pages: [['Rex'], ['Tess']],
      refused: 'unauthorized 401',
    })
    expect(errors).to.deep.equal([])
  })

  it('from an origin not on CORS_ORIGINS: a network failure whose message says it may be CORS', async () => {
    const page = await (browser as Browser).newPage()
    // The same pages on `localhost`: another origin, which CORS_ORIGINS does not list.
    const origin = `http://localhost:${(pages?.address() as AddressInfo).port}`
    await page.goto(`${origin}/`)
    await page.waitForFunction(() => (globalThis as { ready?: boolean }).ready === true)
    const result = await page.evaluate(
      ([base, key]) =>
        (globalThis as unknown as { unlisted: (b: string, k: string) => Promise<string> }).unlisted(
          base,
          key,
        ),
      [`http://127.0.0.1:${api?.port}/v1`, TEST_KEY] as const,
    )
    expect(result).to.match(
      /^budget_exhausted: network: no answer: .*\(or CORS: this page's origin http:\/\/localhost:\d+ /,
    )
    expect(result).to.include("service's CORS_ORIGINS")
  })
})
