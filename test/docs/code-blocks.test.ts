import { execFileSync } from 'node:child_process'
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { allBlocks, commandsOf, type Block } from './fences.js'
import { createScratchProject, packagesOf } from './scratch-project.js'
import { allExamples } from './tsdoc-examples.js'
import { askServing, freePort, listensOn8080, onPort, urlsOf } from './serving-programs.js'
import {
  cleanRootLater,
  runCommands,
  runServiceBlock,
  startsService,
  type Target,
} from './shell-blocks.js'
import { cannotRun, notRunByCi } from './static-commands.js'
import { startService, type ServiceProcess } from '../support/service-process.js'

/** Each fence language, and the words it may carry after it (see docs/contributing.md). */
const KNOWN: Record<string, ReadonlyArray<string>> = {
  ts: [''],
  js: [''],
  sh: ['', 'ci', 'long'],
  text: [''],
  http: [''],
}
/** The entry points' main functions, each shown by an example in the API reference. */
const MAIN_FUNCTIONS = [
  'createPet',
  'createKoaApp',
  'createClient',
  'connectMongo',
  'petStoreContract',
  'idempotencyStoreContract',
]
const callsService = (code: string) => code.includes('ANIMAL_STORE_URL')
const kindOf = (block: Block) => `${block.lang} ${block.flags.join(' ')}`.trim()
const where = (block: Block) => `${block.file}:${block.line}`
const blocks = allBlocks()
const ofKind = (kind: string) => blocks.filter((block) => kindOf(block) === kind)
const needsMongo = (code: string) =>
  code.includes('animal-store/mongodb') || /mongodb:\/\/|test\/ferretdb/.test(code)
const mongoUri = () => process.env.TEST_MONGODB_URI
/** What git sees changed or untracked in the clone (ignored files, like a key file, left out). */
const gitStatus = () => execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' })

const skipWithoutMongo = (context: Mocha.Context, code: string) => {
  if (!needsMongo(code) || mongoUri() !== undefined) return
  console.warn(`!!! skipped: ${process.env.TEST_MONGODB_MISSING ?? 'no MongoDB test server'}`)
  context.skip()
}

describe('the code blocks of the README and docs/', function () {
  this.timeout(60_000)

  it('each has a fence language the test knows, so none goes unchecked', () => {
    const known = (b: Block) =>
      b.lang === 'file' ? b.flags.length === 1 : (KNOWN[b.lang] ?? []).includes(b.flags.join(' '))
    const unknown = blocks.filter((b) => !known(b))
    expect(unknown.map((b) => `${where(b)}: "${kindOf(b)}"`)).to.deep.equal([])
    expect(blocks.length).to.be.greaterThan(20)
  })

  describe('files shown whole: each block is the file it names', () => {
    for (const block of blocks.filter((b) => b.lang === 'file'))
      it(`${where(block)} is ${block.flags[0]}`, () => {
        expect(block.code).to.equal(readFileSync(block.flags[0] as string, 'utf8'))
      })
  })

  describe('TypeScript programs: typechecked as an embedder would, then run', function () {
    let project: ReturnType<typeof createScratchProject> | undefined
    // Named after where they are, so that the compiler's messages say it. The API reference's
    // examples (the doc comments' @example) are programs too.
    const programs = [...ofKind('ts'), ...allExamples()].map((block) => ({
      block,
      name: `${block.file.replace(/\W/g, '_')}_line_${block.line}`,
    }))
    // A program that listens on 8080 gets a port of its own (serving-programs.ts).
    const ports = new Map<string, number>()
    // The host Koa app's middleware come from its documented install line, and only from it.
    const hostLine = ofKind('sh ci')
      .filter((block) => block.file === 'docs/embedding.md')
      .flatMap((block) => commandsOf(block.code))
      .find((command) => command.startsWith('npm install koa-mount'))
    before(async function () {
      this.timeout(180_000)
      if (hostLine === undefined) throw new Error('docs/embedding.md has no host install line')
      // Made here, not when the file loads, so that a run that skips these tests leaves none.
      project = createScratchProject(packagesOf(hostLine))
      for (const { block, name } of programs) {
        if (listensOn8080(block.code)) ports.set(name, await freePort())
        const port = ports.get(name)
        project.add(name, port === undefined ? block.code : onPort(block.code, port))
      }
      await project.compile().catch((error: { stdout?: string }) => {
        throw new Error(`tsc refused a block of the docs:\n${error.stdout ?? String(error)}`)
      })
    })
    after(() => project?.remove())

    it('the API reference has examples of its main entry points', () => {
      const shown = allExamples().map(
        (block) => /import \{[^}]*\} from 'animal-store[^']*'/.exec(block.code)?.[0],
      )
      for (const name of MAIN_FUNCTIONS)
        expect(
          allExamples().some((b) => b.code.includes(`${name}(`)),
          name,
        ).to.equal(true)
      expect(shown).not.to.include(undefined)
    })

    for (const { block, name } of programs)
      it(`${where(block)} ${callsService(block.code) ? 'typechecks (it calls a running service)' : listensOn8080(block.code) ? 'serves the URLs it names' : 'runs and exits 0'}`, async function () {
        // The client's examples call a service: client.md's programs run against one.
        if (callsService(block.code)) return
        skipWithoutMongo(this, block.code)
        const uri = mongoUri()
        const env = uri === undefined ? {} : { MONGODB_URI: `${uri}docs_${name}_${Date.now()}` }
        if (project === undefined) throw new Error('the scratch project was not made')
        const port = ports.get(name)
        if (port !== undefined) {
          const urls = urlsOf(onPort(block.code, port), port)
          expect(urls, 'a serving program names a URL to ask').not.to.deep.equal([])
          const file = `${project.dir}/out/${name}.js`
          return void expect(await askServing(file, urls, 30_000)).to.deep.equal(
            urls.map(() => 200),
          )
        }
        await project.runProgram(name, env, 30_000)
      })
  })

  describe('shell commands, against a service the test started', function () {
    let service: ServiceProcess
    let target: Target
    let cleanRoot = () => {}
    let statusBefore = ''
    before(async function () {
      this.timeout(30_000)
      cleanRoot = cleanRootLater()
      statusBefore = gitStatus()
      service = await startService({ API_KEYS: '', METRICS_PORT: '0' })
      const key = /the generated key (\S+)/.exec(service.output.join('\n'))?.[1]
      const metrics = service.output.find((line) => line.includes('"metricsPort"'))
      if (key === undefined || metrics === undefined) throw new Error(service.output.join('\n'))
      const metricsPort = (JSON.parse(metrics) as { metricsPort: number }).metricsPort
      target = { port: service.port, metricsPort, key, mongodbUri: mongoUri() }
      const listed = await fetch(`http://127.0.0.1:${service.port}/v1/pets`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(listed.status).to.equal(200)
    })
    after(async () => {
      // A reader who runs the blocks in a clone is left with nothing for git to show.
      const statusAfter = gitStatus()
      cleanRoot()
      expect(await service?.stop()).to.equal(0)
      expect(statusAfter, 'the blocks left files git sees').to.equal(statusBefore)
    })

    for (const block of ofKind('sh'))
      it(`${where(block)} ${startsService(block.code) ? 'starts the service' : 'exits 0'}`, async function () {
        skipWithoutMongo(this, block.code)
        if (!startsService(block.code)) return void (await runCommands(block.code, target, 30_000))
        const healthz = async (port: number) => {
          expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).to.equal(200)
        }
        const started = await runServiceBlock(block.code, target, healthz, 50_000)
        expect(started.port, started.output).to.be.greaterThan(0)
        expect(started.status, started.output).to.equal(0)
      })
  })

  describe("JavaScript programs: the client's, run by its own test", () => {
    // test/adapters/http-client/doc-examples.test.ts runs them against a started service.
    for (const block of ofKind('js'))
      it(`${where(block)} is on the page whose examples the client's test runs`, () => {
        expect(block.file).to.equal('docs/client.md')
      })
  })

  describe('commands run by CI', () => {
    for (const block of ofKind('sh ci'))
      it(`${where(block)}: every command is one .ci/run runs`, () => {
        expect(commandsOf(block.code).map(notRunByCi).filter(Boolean)).to.deep.equal([])
      })
  })

  describe('long-running commands', () => {
    for (const block of ofKind('sh long'))
      it(`${where(block)}: each runs a file that takes the options shown`, () => {
        expect(commandsOf(block.code).map(cannotRun).filter(Boolean)).to.deep.equal([])
      })
  })
})
