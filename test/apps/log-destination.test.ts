import { execFileSync, spawn } from 'node:child_process'
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
} from 'node:fs'
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

  it('writes first the rest of a batch that a full pipe took only in part', async () => {
    // A FIFO is a real pipe: a non-blocking write over PIPE_BUF (4 KB) takes what fits.
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    const writeFd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)
    let text = ''
    const drain = () => {
      const buffer = Buffer.alloc(65536)
      for (;;) {
        try {
          const n = readSync(readFd, buffer)
          if (n === 0) return
          text += buffer.toString('utf8', 0, n)
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return
          throw error
        }
      }
    }
    try {
      const destination = createLogDestination({ fd: writeFd, minChars: 10_000 })
      const total = 5000 // about 300 KB, drained every 120 KB: the pipe holds 64 KB
      for (let n = 0; n < total; n++) {
        destination.write(line(n))
        if (n % 2000 === 1999) drain()
      }
      destination.flush()
      for (let tries = 0; tries < 100 && text.split('\n').length <= total; tries++) {
        drain()
        await new Promise((resolve) => setTimeout(resolve, 15)) // the destination retries
        destination.flush()
      }
      drain()
      expect(numbersIn(text)).to.deep.equal([...Array(total).keys()])
    } finally {
      closeSync(writeFd)
      closeSync(readFd)
    }
  })

  // Batches under PIPE_BUF (4 KB) go into a pipe whole or not at all; larger ones in part.
  for (const minChars of [512, 10_000])
    it(`on a full non-blocking pipe: never blocks, keeps at most the cap, counts what it dropped, loses nothing else (batches of ${minChars} characters)`, async function () {
      this.timeout(20_000)
      const file = join(dir, 'out.log')
      // The reader starts reading only after 300 ms: until then its stdin fills up (a socket pair,
      // node's child stdio, whose buffers take more bytes when the writes are larger).
      const reader = spawn('sh', ['-c', `sleep 0.3; exec cat > '${file}'`], {
        stdio: ['pipe', 'ignore', 'ignore'],
      })
      try {
        const fd = (reader.stdin as unknown as { _handle: { fd: number } })._handle.fd
        const destination = createLogDestination({ fd, minChars, maxPendingChars: 200_000 })
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
        // At most the cap waited in memory, besides what the socket pair itself held (about
        // 90 KB with small writes here, 170 KB with large ones); without the cap all would be kept.
        expect(kept.length * line(0).length).to.be.below(200_000 + 256 * 1024)
      } finally {
        reader.kill('SIGKILL')
      }
    })
})
