import { expect } from 'chai'
import type { Browser } from 'playwright-core'
import { OPERATIONS } from '../../core/index.js'
import { TEST_KEY, startTestApi, type TestApi } from '../support/app.js'
import { launchChromium } from '../support/browser.js'

/**
 * The reference page in a real browser (Debian's chromium, headless): it must render the served
 * document, obey its own Content-Security-Policy, and call the API through "Try it out".
 */
describe('the API reference page in a browser', function () {
  this.timeout(90_000)
  let api: TestApi
  let browser: Browser

  before(async function () {
    browser = await launchChromium(this)
    api = await startTestApi()
    await api.createPet({ name: 'Rex', categoryId: 9223372036854775807n, status: 'available' })
  })
  after(async () => {
    await browser?.close()
    await api?.close()
  })

  it('lists the operations, marks getPet deprecated, and tries listPets with a key', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } })
    const console: string[] = []
    page.on('console', (m) => console.push(`${m.type()}: ${m.text()}`))
    page.on('pageerror', (e) => console.push(`pageerror: ${e.message}`))
    await page.goto(`http://127.0.0.1:${api.port}/v1/docs`)

    const operations = page.locator('.opblock')
    await operations.first().waitFor()
    const ids = await operations.evaluateAll((els) => els.map((e) => e.id))
    for (const op of Object.keys(OPERATIONS))
      expect(
        ids.some((id) => id.endsWith(`-${op}`)),
        op,
      ).to.equal(true)
    const getPet = page.locator('.opblock[id$="-getPet"]')
    expect(await getPet.getAttribute('class')).to.include('opblock-deprecated')

    if (process.env.DOCS_SCREENSHOT !== undefined) {
      // From the server list down: the four operations, getPet struck through as deprecated.
      const top = (await page.locator('.scheme-container').boundingBox())?.y ?? 0
      await page.screenshot({
        path: process.env.DOCS_SCREENSHOT,
        fullPage: true,
        clip: { x: 0, y: top, width: 1280, height: 520 },
      })
    }

    await page.locator('button.authorize').first().click()
    await page.locator('.auth-container input').first().fill(TEST_KEY)
    await page.locator('.auth-btn-wrapper button.authorize').click()
    await page.locator('button.btn-done').click()

    const listPets = page.locator('.opblock[id$="-listPets"]')
    await listPets.locator('.opblock-summary').click()
    await listPets.locator('button.try-out__btn').click()
    await listPets.locator('button.execute').click()
    const status = listPets.locator('.live-responses-table .response .response-col_status')
    await status.first().waitFor()
    expect((await status.first().innerText()).trim()).to.equal('200')
    expect(await listPets.locator('.live-responses-table').innerText()).to.include('"Rex"')

    const violations = console.filter((l) => /Content Security Policy|Refused to/i.test(l))
    expect(violations).to.deep.equal([])
    expect(console.filter((l) => l.startsWith('pageerror') || l.startsWith('error'))).to.deep.equal(
      [],
    )
  })

  it('enforces its policy: an inline script is refused, and the refusal is reported', async () => {
    const page = await browser.newPage()
    const console: string[] = []
    page.on('console', (m) => console.push(m.text()))
    await page.goto(`http://127.0.0.1:${api.port}/v1/docs`)
    await page.locator('.opblock').first().waitFor()
    await page.addScriptTag({ content: 'window.inlineRan = true' }).catch(() => undefined)
    expect(await page.evaluate(() => (globalThis as { inlineRan?: boolean }).inlineRan)).to.equal(
      undefined,
    )
    expect(console.some((l) => /Content Security Policy/.test(l))).to.equal(true)
  })
})
