import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { keysCli } from '../support/keys-cli.js'
import { tempKeyFile } from '../support/minted-keys.js'

describe('npm run keys (the key tool, on a key file)', function () {
  this.timeout(60_000)
  const file = tempKeyFile()
  after(() => file.remove())

  it('creates a 256-bit key, prints it once, and stores only its digest', async () => {
    const created = await keysCli([
      'create',
      '--label',
      'ci',
      '--scope',
      'pets:read',
      '--expires-in',
      '90d',
      '--file',
      file.path,
    ])
    expect(created.code).to.equal(0)
    const key = created.stdout.trim()
    expect(key).to.match(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(key, 'base64url')).to.have.length(32)
    expect(created.stderr).to.match(
      /^created key-[0-9a-f]{12} \(pets:read\); its key, shown once, is on stdout\n$/,
    )
    expect(created.stderr).to.not.include(key)
    const stored = readFileSync(file.path, 'utf8')
    expect(stored).to.not.include(key)
    const line = JSON.parse(stored) as Record<string, unknown>
    expect(line).to.include({ label: 'ci', revokedAt: null })
    expect(line.scopes).to.deep.equal(['pets:read'])
    const days =
      (Date.parse(line.expiresAt as string) - Date.parse(line.createdAt as string)) / 864e5
    expect(days).to.equal(90)
  })

  it('lists id, label, scopes and times, never a key or digest; revokes by id', async () => {
    const second = await keysCli([
      'create',
      '--label',
      'deploy',
      '--scope',
      'pets:write',
      '--file',
      file.path,
    ])
    const lines = readFileSync(file.path, 'utf8').trim().split('\n')
    const records = lines.map((l) => JSON.parse(l) as { id: string; digest: string })
    const listed = await keysCli(['list', '--file', file.path])
    expect(listed.code).to.equal(0)
    expect(listed.stdout.split('\n')[0]).to.match(/^id +label +scopes +created +expires +revoked$/)
    for (const { id, digest } of records) {
      expect(listed.stdout).to.include(id)
      expect(listed.stdout).to.not.include(digest)
      expect(listed.stdout).to.not.include(digest.slice(0, 16))
    }
    expect(listed.stdout).to.not.include(second.stdout.trim())
    const revoked = await keysCli(['revoke', records[1]!.id, '--file', file.path])
    expect(revoked.code).to.equal(0)
    const after = await keysCli(['list', '--file', file.path])
    const row = after.stdout.split('\n').find((l) => l.startsWith(records[1]!.id))
    expect(row).to.match(/ \d{4}-\d\d-\d\dT[\d:.]+Z$/)
    const missing = await keysCli(['revoke', 'key-000000000000', '--file', file.path])
    expect(missing.code).to.equal(1)
    expect(missing.stderr).to.include('no key has the id or label "key-000000000000"')
  })

  it('revokes by a label that exactly one key has, and refuses an ambiguous one', async () => {
    for (const label of ['solo', 'twin', 'twin'])
      expect((await keysCli(['create', '--label', label, '--file', file.path])).code).to.equal(0)
    const stored = () =>
      readFileSync(file.path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; label: string; revokedAt: string | null })
    const solo = stored().find((key) => key.label === 'solo')
    const revoked = await keysCli(['revoke', 'solo', '--file', file.path])
    expect(revoked.code).to.equal(0)
    expect(revoked.stderr).to.equal(`revoked ${solo?.id} (solo)\n`)
    expect(stored().find((key) => key.label === 'solo')?.revokedAt).to.not.equal(null)
    const twins = stored().filter((key) => key.label === 'twin')
    const ambiguous = await keysCli(['revoke', 'twin', '--file', file.path])
    expect(ambiguous.code).to.equal(1)
    expect(ambiguous.stderr).to.include(
      `the label "twin" names 2 keys (${twins.map((key) => key.id).join(', ')}): revoke one by its id`,
    )
    expect(stored().filter((key) => key.label === 'twin' && key.revokedAt !== null)).to.have.length(
      0,
    )
  })

  it('refuses bad input with usage and status 2, and needs a key store', async () => {
    for (const args of [
      ['create', '--file', file.path],
      ['create', '--label', 'x', '--scope', 'pets:delete', '--file', file.path],
      ['create', '--label', 'x', '--expires-in', 'soon', '--file', file.path],
      ['revoke', '--file', file.path],
      ['prune', '--grace', 'a while', '--file', file.path],
      ['create', '--label', 'x', '--expires-in', '0s', '--file', file.path],
      ['frobnicate'],
      ['list'],
    ]) {
      const result = await keysCli(args)
      expect(result.code, args.join(' ')).to.equal(2)
      expect(result.stderr).to.include('usage:')
      expect(result.stdout).to.equal('')
    }
  })

  it('prunes keys expired or revoked longer ago than the grace (30 days unless given)', async () => {
    const own = tempKeyFile()
    try {
      const day = 86_400_000
      await own.mint(['pets:read'], day, Date.now() - 40 * day) // expired 39 days ago: pruned
      const recent = await own.mint(['pets:read'], day, Date.now() - 3 * day) // 2 days ago
      const revoked = await own.mint(['pets:read'])
      await own.registry.revokeKey(revoked.stored.id, Date.now() - 1000)()
      const live = await own.mint(['pets:write'])
      const ids = async () => {
        const keys = await own.registry.listKeys()()
        return keys._tag === 'Right' ? keys.right.map((k) => k.id) : []
      }
      const pruned = await keysCli(['prune', '--file', own.path])
      expect(pruned.code).to.equal(0)
      expect(pruned.stderr).to.match(/^pruned 1 key expired or revoked before /)
      expect(pruned.stdout).to.equal('')
      expect(await ids()).to.deep.equal([recent, revoked, live].map((m) => m.stored.id))
      expect(await keysCli(['prune', '--grace', '0s', '--file', own.path])).to.include({ code: 0 })
      expect(await ids()).to.deep.equal([live.stored.id])
    } finally {
      own.remove()
    }
  })

  it('prints its usage on --help or -h, status 0, the key file taking precedence over MongoDB', async () => {
    for (const flag of ['--help', '-h']) {
      const result = await keysCli([flag])
      expect(result.code, flag).to.equal(0)
      expect(result.stdout).to.include('usage:')
      expect(result.stdout).to.include(
        'Keys live in the file of --file when given, else in MongoDB when MONGODB_URI is set',
      )
    }
    // --file wins over MONGODB_URI: no connection to an unreachable server is even tried.
    const listed = await keysCli(['list', '--file', file.path], {
      MONGODB_URI: 'mongodb://127.0.0.1:1/x',
    })
    expect(listed.code, listed.stderr).to.equal(0)
  })

  it('refuses a MONGODB_URI that can never work with status 2, before trying to connect', async () => {
    const result = await keysCli(['list'], { MONGODB_URI: 'mongodb://127.0.0.1:9/bad.name' })
    expect(result.code).to.equal(2)
    expect(result.stderr).to.match(
      /^MONGODB_URI the database name "bad.name" is not one MongoDB accepts/,
    )
  })
})
