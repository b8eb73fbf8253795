import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { createLogDestination } from '../../apps/server/log-destination.js'

const line = (n: number) => `{"n":${n},"pad":"${'x'.repeat(40)}"}\n`
const numbersIn = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{"n":'))
    .map((l) => (JSON.parse(l) as { n: number }).n)

describe('the log destination (batched writes to a descriptor)', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'log-destination-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('holds lines until a batch is full or flushed, then writes them in order', () => {
    const file = join(dir, 'out.log')
    const fd = openSync(file, 'w')
    try {
      const twentyLines = [...Array(20).keys()].map(line).join('').length
      const destination = createLogDestination({ fd, minChars: twentyLines })
      for (let n = 0; n < 19; n++) destination.write(line(n))
      expect(readFileSync(file, 'utf8')).to.equal('')
      // The twentieth line fills the batch: written at once, synchronously.
      destination.write(line(19))
      expect(numbersIn(readFileSync(file, 'utf8'))).to.deep.equal([...Array(20).keys()])
      destination.write(line(20))
      destination.flush()
      expect(numbersIn(readFileSync(file, 'utf8'))).to.deep.equal([...Array(21).keys()])
      destination.write(line(21))
      destination.flushSync()
      expect(numbersIn(readFileSync(file, 'utf8'))).to.deep.equal([...Array(22).keys()])
    } finally {
      closeSync(fd)
    }
  })

  it('on a full non-blocking pipe: never blocks, keeps at most the cap, counts what it dropped, loses nothing else', async function () {
    this.timeout(20_000)
    const file = join(dir, 'out.log')
    // The reader starts reading only after 300 ms: until then the pipe (64 KB) fills up.
    const reader = spawn('sh', ['-c', `sleep 0.3; exec cat > '${file}'`], {
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    try {
      const fd = (reader.stdin as unknown as { _handle: { fd: number } })._handle.fd
      const destination = createLogDestination({ fd, minChars: 512, maxPendingChars: 200_000 })
      const total = 20_000 // about 1 MB: far more than the pipe and the cap together
      const started = performance.now()
      for (let n = 0; n < total; n++) destination.write(line(n))
      expect(performance.now() - started).to.be.below(2_000)
      // Retried every 10 ms until the reader has taken everything.
      const deadline = Date.now() + 10_000
      let text = ''
      while (Date.now() < deadline && !text.includes('log lines dropped')) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        text = readFileSync(file, { encoding: 'utf8', flag: 'a+' })
      }
      const kept = numbersIn(text)
      const dropped = /"dropped":(\d+)/.exec(text)?.[1]
      expect(dropped, 'a line counts the dropped ones').to.not.equal(undefined)
      // Everything kept is a prefix, in order and whole; the rest is exactly the count dropped.
      expect(kept).to.deep.equal([...Array(kept.length).keys()])
      expect(kept.length + Number(dropped)).to.equal(total)
      // At most the cap waited in memory, besides what the pipe itself held (64 KB here).
      expect(kept.length * line(0).length).to.be.below(200_000 + 128 * 1024)
    } finally {
      reader.kill('SIGKILL')
    }
  })
})
