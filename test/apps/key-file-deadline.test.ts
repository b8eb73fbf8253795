import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { startTestApi } from '../support/app.js'

const STORE_TIMEOUT_MS = 500

/**
 * While the key file is being read (here a named pipe no one writes yet: its read does not end),
 * a request with a key that is not in API_KEYS fails closed within STORE_TIMEOUT_MS rather than
 * wait for the read; API_KEYS keys are answered at once.
 */
describe('API_KEYS_FILE: a request while the file is being read', function () {
  this.timeout(20_000)
  const dir = mkdtempSync(join(tmpdir(), 'animal-store-fifo-'))
  const fifo = join(dir, 'keys.jsonl')
  after(() => rmSync(dir, { recursive: true, force: true }))

  it(`answers 503 within STORE_TIMEOUT_MS (${STORE_TIMEOUT_MS} ms), not when the read ends`, async () => {
    execFileSync('mkfifo', ['-m', '600', fifo])
    const env = { API_KEYS_FILE: fifo, STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS) }
    const api = await startTestApi({ env })
    try {
      const started = performance.now()
      const minted = await api.request({
        path: '/v1/pets',
        headers: { Authorization: 'Bearer minted-0123456789abcdef' },
      })
      const elapsed = performance.now() - started
      expect(minted.status).to.equal(503)
      expect(minted.json).to.include({ code: 'unavailable' })
      expect(elapsed, 'ms').to.be.within(STORE_TIMEOUT_MS - 50, STORE_TIMEOUT_MS + 1500)
      expect((await api.get('/pets')).status).to.equal(200)
    } finally {
      closeSync(openSync(fifo, 'w')) // a writer comes and goes: the read ends, with no keys
      await api.close()
    }
  })
})
