import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect } from 'chai'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../support/browser.js'

/** The import specifiers of the package's entry points, from its exports map. */
const ENTRY_POINTS = Object.keys(
  (JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, unknown> })
    .exports,
)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => (subpath === '.' ? 'animal-store' : `animal-store/${subpath.slice(2)}`))

/** TypeDoc names an entry point's page after its specifier: `animal-store_koa.html`. */
const pageOf = (specifier: string) => `modules/${specifier.replace('/', '_')}.html`

/**
 * The API reference (`npm run docs:api`, TypeDoc) built into a scratch folder and read in
 * headless Chromium: its landing page says what each entry point is for and where to start, and
 * each entry point's page lists functions first, every export with its summary.
 */
describe('the API reference, in a browser', function () {
  this.timeout(240_000)
  const out = mkdtempSync(join(tmpdir(), 'animal-store-api-'))
  let browser: Browser | undefined
  let page: Page

  before(async function () {
    browser = await launchChromium(this)
    await promisify(execFile)(process.execPath, ['node_modules/typedoc/bin/typedoc', '--out', out])
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } })
  })
  after(async () => {
    await browser?.close()
    rmSync(out, { recursive: true, force: true })
  })

  it('lands on a page that names every entry point, links it, and says where to start', async () => {
    await page.goto(`file://${out}/index.html`)
    const screenshot = process.env.API_REFERENCE_SCREENSHOT ?? join(out, 'landing.png')
    await page.screenshot({ path: screenshot, fullPage: true })
    expect(statSync(screenshot).size).to.be.greaterThan(20_000)
    const content = page.locator('.col-content')
    const text = await content.innerText()
    expect(text).to.include('Where to start')
    for (const specifier of ENTRY_POINTS) {
      expect(text, specifier).to.include(specifier)
      expect(await content.locator(`a[href="${pageOf(specifier)}"]`).count(), specifier).to.equal(1)
    }
    for (const name of ['createPet', 'createKoaApp', 'createClient', 'connectMongo'])
      expect(await content.locator(`a[href$=".${name}.html"]`).count(), name).to.be.greaterThan(0)
    // The guides are links, to copies beside the reference; the Koa entry names its page's peer.
    for (const guide of ['embedding.md', 'client.md']) {
      expect(await content.locator(`a[href="media/${guide}"]`).count(), guide).to.equal(1)
      expect(readFileSync(join(out, 'media', guide), 'utf8')).to.equal(
        readFileSync(join('docs', guide), 'utf8'),
      )
    }
    expect(text).to.include('swagger-ui-dist@5')
  })

  for (const specifier of ENTRY_POINTS)
    it(`${specifier}: functions first, and every export listed with its summary`, async () => {
      await page.goto(`file://${out}/${pageOf(specifier)}`)
      const groups = await page.locator('.col-content h2').allInnerTexts()
      expect(groups[0]).to.equal('Functions')
      // Re-exports of another entry point's names are links to where their summary is.
      for (const group of await page.locator('details.tsd-member-group').all()) {
        const name = await group.locator('h2').innerText()
        if (name === 'References') continue
        const members = await group.locator('dt.tsd-member-summary').allInnerTexts()
        const summaries = await group.locator('dd.tsd-member-summary').allInnerTexts()
        expect(summaries.length, `${name}: ${members.join(', ')}`).to.equal(members.length)
        expect(summaries.filter((text) => text.trim() === '').length, name).to.equal(0)
      }
    })

  it("shows createPet's signature with named types, not the codec's insides", async () => {
    await page.goto(`file://${out}/functions/animal-store.createPet.html`)
    const signature = await page.locator('.tsd-signature').first().innerText()
    expect(signature).to.include('Pet')
    expect(signature).not.to.match(/Decoded|Type<|KeyofC/)
    expect(await page.locator('.col-content').innerText()).to.include('Example')
  })
})
