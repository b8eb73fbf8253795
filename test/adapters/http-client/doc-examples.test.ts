import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { expect } from 'chai'
import { DEFAULT_BUDGET } from '../../../adapters/http-client/index.js'
import { TEST_KEY, startTestApi } from '../../support/app.js'

/** The client's page: every `js` block of it is a program run here. */
const DOC = 'docs/client.md'
/**
 * Inside the package, so that `import 'animal-store/client'` resolves to the built package by
 * its own name (package self-reference), as in an embedder's project.
 */
const DIR = 'dist/doc-examples'

const programsOf = (markdown: string): string[] =>
  [...markdown.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] as string)

const run = (file: string, env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      process.execPath,
      [file],
      { env: { ...process.env, ...env }, timeout: 30_000 },
      (e, stdout, stderr) =>
        done({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : 1, stdout, stderr }),
    )
  })

/** What some examples must print: the text their comments promise. */
const PRINTS: ReadonlyArray<[RegExp, RegExp]> = [
  [/client\.pages/, /^3 pets\n$/],
  [/case 'invalid_request'/, /^refused \(400\): name must/],
  [/onDeprecation/, /^$/],
  [/taskEither/, /^0\n$/],
]

/** A service whose first create answers 503 without Retry-After: the client backs off and retries. */
const flakyService = async () => {
  let creates = 0
  const server = createServer((req, res) => {
    req.resume()
    const [status, body] =
      creates++ === 0
        ? [503, '{"code":"unavailable","message":"try again","status":503}']
        : [201, '{"id":1,"name":"Rex","categoryId":7,"status":"pending"}']
    res.writeHead(status, { 'Content-Type': 'application/json', Location: '/v1/pets/1' })
    res.end(body)
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/v1`, close: () => server.close() }
}

describe(`the examples of ${DOC}`, function () {
  this.timeout(120_000)
  const programs = programsOf(readFileSync(DOC, 'utf8'))
  before(() => mkdirSync(DIR, { recursive: true }))
  after(() => rmSync(DIR, { recursive: true, force: true }))

  it('has the examples the documentation promises', () => {
    expect(programs.length).to.be.at.least(6)
  })

  it("gives the budget's defaults as the client has them", () => {
    const rows = [...readFileSync(DOC, 'utf8').matchAll(/^\| `(\w+)` +\| (\d+) +\|/gm)]
    expect(Object.fromEntries(rows.map(([, name, value]) => [name, Number(value)]))).to.deep.equal(
      DEFAULT_BUDGET,
    )
  })

  it('the onRetry example says how long it waits in whole milliseconds', async () => {
    const program = programs.find((text) => /onRetry/.test(text)) ?? ''
    const service = await flakyService()
    try {
      const file = join(DIR, 'example-on-retry.mjs')
      writeFileSync(file, program)
      const result = await run(file, { ANIMAL_STORE_URL: service.url, ANIMAL_STORE_KEY: TEST_KEY })
      expect(result.code, result.stderr).to.equal(0)
      expect(result.stderr).to.match(/^createPet attempt 1: unavailable, again in \d+ ms\n$/)
    } finally {
      service.close()
    }
  })

  programs.forEach((program, i) => {
    it(`runs example ${i + 1} against a started service: ${program
      .split('\n')
      .find((l) => /client\./.test(l))
      ?.trim()}`, async () => {
      const api = await startTestApi()
      try {
        const file = join(DIR, `example-${i + 1}.mjs`)
        writeFileSync(file, program)
        const env = {
          ANIMAL_STORE_URL: `http://127.0.0.1:${api.port}/v1`,
          ANIMAL_STORE_KEY: TEST_KEY,
        }
        const result = await run(file, env)
        expect(result.code, result.stderr).to.equal(0)
        for (const [which, prints] of PRINTS)
          if (which.test(program)) expect(result.stdout).to.match(prints)
        if (/onDeprecation/.test(program))
          expect(result.stderr.trim().split('\n')).to.deep.equal([
            'getPet goes on Thu, 05 Dec 2030 00:00:00 GMT',
          ])
      } finally {
        await api.close()
      }
    })
  })
})
