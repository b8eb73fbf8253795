import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { expect } from 'chai'

/** GETs a URL with gzip accepted; the status, the headers and the body, unzipped. */
const get = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) =>
      request(url, { headers: { 'Accept-Encoding': 'gzip', ...headers } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const raw = Buffer.concat(chunks)
          const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString() })
        })
      })
        .on('error', reject)
        .end(),
  )

describe('the Koa host example of the docs (apps/koa-host-example)', () => {
  let child: ChildProcess
  let command = ''

  before(async function () {
    this.timeout(20_000)
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/koa-host-example/main.ts'], {
      env: { ...process.env, PORT: '0', API_KEY: 'the-example-key-0123456789' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    command = await new Promise<string>((resolve, reject) => {
      child.stdout?.once('data', (line: Buffer) => resolve(line.toString().trim()))
      child.once('exit', (code) => reject(new Error(`exited ${code}`)))
    })
  })

  after(() => {
    if (child.pid !== undefined) process.kill(child.pid)
  })

  it('prints a curl command, and the mounted API answers it through the host middleware', async () => {
    const url = /(http:\/\/127\.0\.0\.1:\d+\/shop\/v1\/pets)/.exec(command)?.[1] ?? ''
    expect(url).to.not.equal('')
    const pets = await get(url, { Authorization: 'Bearer the-example-key-0123456789' })
    expect(pets.status).to.equal(200)
    expect(pets.body).to.equal('[]')
    expect(pets.headers).to.include({ 'content-encoding': 'gzip', 'x-served-by': 'host' })
    expect(pets.headers).to.have.property('etag')
    expect(pets.headers).to.have.property('strict-transport-security')
    const refused = await get(url, {})
    expect(refused.status).to.equal(401)
    expect(refused.headers).to.include({ 'content-encoding': 'gzip', 'x-served-by': 'host' })
    expect(JSON.parse(refused.body)).to.include({ code: 'unauthorized' })
  })
})
