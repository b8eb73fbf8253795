import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { startTestApi, type TestApi } from '../../support/app.js'
import { expectError } from '../../support/expect-error.js'
import { tempKeyFile } from '../../support/minted-keys.js'
import { unusedMethod } from '../../support/route-table.js'

describe('HTTP: minted keys, scopes, expiry and revocation (API_KEYS_FILE)', () => {
  const file = tempKeyFile()
  let api: TestApi
  let now = Date.now()
  const keys: Record<string, string> = {}
  const bearer = (name: string) => ({ Authorization: `Bearer ${keys[name]}` })
  const newPet = '{"name":"Rex","categoryId":1,"status":"available"}'
  const post = (name: string) =>
    api.request({
      method: 'POST',
      path: '/v1/pets',
      headers: { ...bearer(name), 'Content-Type': 'application/json' },
      body: newPet,
    })
  const get = (name: string, path = '/v1/pets') => api.request({ path, headers: bearer(name) })

  before(async () => {
    keys.read = (await file.mint(['pets:read'])).key
    keys.write = (await file.mint(['pets:write'])).key
    keys.both = (await file.mint(['pets:read', 'pets:write'])).key
    keys.expiring = (await file.mint(['pets:read'], 60_000, now)).key
    const revoked = await file.mint(['pets:read'])
    keys.revoked = revoked.key
    await file.registry.revokeKey(revoked.stored.id, now)()
    api = await startTestApi({ env: { API_KEYS_FILE: file.path }, now: () => now })
  })
  after(async () => {
    await api.close()
    file.remove()
  })

  it('lets pets:read list, get and see /store/orders, and refuses it createPet with 403', async () => {
    expect((await get('read')).status).to.equal(200)
    expect((await get('read', '/v1/pets/1')).status).to.equal(404)
    expect((await get('read', '/v1/store/orders')).status).to.equal(501)
    const reply = await post('read')
    expectError(reply, 403, 'insufficient_scope')
    expect(reply.headers['www-authenticate']).to.equal(
      'Bearer realm="animal-store", error="insufficient_scope", scope="pets:write"',
    )
  })

  it('lets pets:write create, and refuses it the reads with 403 naming pets:read', async () => {
    expect((await post('write')).status).to.equal(201)
    for (const path of ['/v1/pets', '/v1/pets/1', '/v1/store/orders']) {
      const reply = await get('write', path)
      expectError(reply, 403, 'insufficient_scope')
      expect(reply.headers['www-authenticate']).to.include('scope="pets:read"')
    }
    expect((await post('both')).status).to.equal(201)
    expect((await get('both')).status).to.equal(200)
  })

  it('answers a method no route has with 405 whatever the scopes', async () => {
    const method = unusedMethod()
    const reply = await api.request({ method, path: '/v1/pets', headers: bearer('read') })
    expectError(reply, 405, 'method_not_allowed')
  })

  it('refuses an expired key with 401 invalid_token, from the moment it expires', async () => {
    expect((await get('expiring')).status).to.equal(200)
    now += 60_000
    const reply = await get('expiring')
    expectError(reply, 401, 'invalid_token')
    expect(reply.headers['www-authenticate']).to.match(
      /^Bearer realm="animal-store", error="invalid_token", error_description="the API key has expired"$/,
    )
  })

  it('refuses a revoked key with 401 invalid_token; an unknown key keeps 401 unauthorized', async () => {
    const reply = await get('revoked')
    expectError(reply, 401, 'invalid_token')
    expect(reply.headers['www-authenticate']).to.include(
      'error="invalid_token", error_description="the API key was revoked"',
    )
    expect((reply.json as { message: string }).message).to.equal('the API key was revoked')
    const unknown = await api.request({
      path: '/v1/pets',
      headers: { Authorization: 'Bearer no-such-key-anywhere' },
    })
    expectError(unknown, 401, 'unauthorized')
  })

  it('never shows a key or its digest in an answer', async () => {
    const replies = await Promise.all([get('read'), post('read'), get('revoked')])
    const text = replies.map((r) => r.text + JSON.stringify(r.headers)).join('\n')
    for (const key of Object.values(keys)) expect(text).to.not.include(key)
    for (const line of readFileSync(file.path, 'utf8').trim().split('\n'))
      expect(text).to.not.include((JSON.parse(line) as { digest: string }).digest)
  })
})
