import { execFile } from 'node:child_process'
import { expect } from 'chai'
import { PET_NAME_MAX_LENGTH } from '../../core/index.js'
import {
  closeSharedClient,
  freshDatabaseName,
  requireMongo,
  sharedClient,
  uriWithDatabase,
} from '../support/mongo.js'

type Run = { code: number; stdout: string; stderr: string }
const storeTool = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<Run> =>
  new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['dist/apps/store/main.js', ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode ?? -1, stdout, stderr }),
    )
  })

type Finding = { id: string; unreadable: boolean; problems: string[] }

/** Each pet the check names: one JSON line each on stdout. */
const findingsOf = (run: Run): Finding[] =>
  run.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Finding)

describe('npm run store -- check', function () {
  this.timeout(60_000)
  let uri: string
  let database: string
  before(function () {
    uri = requireMongo(this)
  })
  beforeEach(() => (database = freshDatabaseName()))
  afterEach(async () => (await sharedClient(uri)).db(database).dropDatabase())
  after(() => closeSharedClient())

  /** Stores documents as they are, past the adapter's rules, and runs the check on them. */
  const checkStored = async (documents: ReadonlyArray<Record<string, unknown>>): Promise<Run> => {
    await (
      await sharedClient(uri)
    )
      .db(database)
      .collection('pets')
      .insertMany([...documents])
    return storeTool(['check'], { MONGODB_URI: uriWithDatabase(uri, database) })
  }

  it('lists each stored pet that today’s input rules would refuse, and exits 1', async () => {
    const run = await checkStored([
      { _id: 1n, name: 'Fine', categoryId: 7n, _v: 1, _op: 'a' },
      { _id: 2n, name: 'L'.repeat(PET_NAME_MAX_LENGTH + 50), categoryId: 7n, _op: 'b' },
      { _id: 3n, name: 'Later', categoryId: 7n, birthDate: '2026-01-02', _op: 'c' },
      { _id: 4n, name: 'Broken', categoryId: 'seven', _op: 'd' },
    ])
    expect(run.code, run.stderr).to.equal(1)
    const findings = findingsOf(run)
    expect(findings.map(({ id, unreadable }) => [id, unreadable])).to.deep.equal([
      ['2', false],
      ['3', false],
      ['4', true],
    ])
    expect(findings[0]?.problems.join()).to.match(
      new RegExp(`name must be at most ${PET_NAME_MAX_LENGTH} characters`),
    )
    expect(findings[1]?.problems.join()).to.match(/birthDate is not a known field/)
    expect(findings[2]?.problems.join()).to.match(/categoryId/)
    expect(run.stderr).to.match(/4 stored pets checked: 3 would be refused/)
  })

  it('lists a pet whose stored id no version could have written, which the service leaves out', async () => {
    const run = await checkStored([
      { _id: 1n, name: 'Fine', categoryId: 7n, _v: 1, _op: 'a' },
      { _id: -5n, name: 'Below', categoryId: 7n, _v: 1, _op: 'b' },
      { _id: 6004.5, name: 'Fraction', categoryId: 7n, _v: 1, _op: 'c' },
      { _id: 'strid', name: 'Text', categoryId: 7n, _v: 1, _op: 'd' },
    ])
    expect(run.code, run.stderr).to.equal(1)
    const findings = findingsOf(run)
    expect(findings.map(({ id, unreadable }) => [id, unreadable]).sort()).to.deep.equal(
      [
        ['-5', true],
        ['6004.5', true],
        ['strid', true],
      ].sort(),
    )
    for (const { problems } of findings) expect(problems.join()).to.match(/id must be/)
  })

  it('exits 0 when every stored pet follows today’s rules', async () => {
    const run = await checkStored([
      { _id: 1n, name: 'Fine', categoryId: 7n, status: 'sold', _v: 1, _op: 'a' },
    ])
    expect([run.code, run.stdout]).to.deep.equal([0, ''])
  })

  it('exits 2 without MONGODB_URI or with another command, saying how to use it', async () => {
    const bare = await storeTool(['check'], {})
    expect(bare.code).to.equal(2)
    expect(bare.stderr).to.match(/MONGODB_URI is not set/)
    const other = await storeTool(['fix'], { MONGODB_URI: uri })
    expect(other.code).to.equal(2)
    expect(other.stderr).to.match(/usage: npm run store -- check/)
  })
})
