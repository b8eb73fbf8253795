import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect } from 'chai'

describe('HTTP: the reference page without swagger-ui-dist installed', () => {
  it('answers 501 naming the missing package, never 401; the document is still served', async function () {
    this.timeout(30_000)
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'test/adapters/koa/docs-missing.fixture.ts',
    ])
    const answers = JSON.parse(stdout) as { path: string; status: number; body: string }[]
    for (const { path, status, body } of answers.slice(0, 2)) {
      expect(status, path).to.equal(501)
      const error = JSON.parse(body) as { code: string; message: string; status: number }
      expect(error.code).to.equal('not_implemented')
      expect(error.status).to.equal(501)
      expect(error.message).to.include('npm install swagger-ui-dist@5')
    }
    expect(answers[2]).to.deep.equal({ path: '/v1/openapi.json', status: 200, body: '' })
  })
})
