import { Writable } from 'node:stream'
import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pino } from 'pino'
import { loadConfig } from '../../apps/server/config.js'
import { createInMemoryPetStore } from '../../adapters/in-memory/index.js'
import { storeUnavailable } from '../../core/index.js'
import { startTestApi } from '../support/app.js'

/** The request lines pino writes: method, path-free route and status of each. */
const capture = () => {
  const lines: Array<{ method: string; status: number }> = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as { method: string; status: number })
      done()
    },
  })
  return { lines, logger: pino({ level: 'info' }, stream) }
}

/** Probes that succeed, one that fails (405), and an API request, through a service. */
const probeAll = async (env: Record<string, string>, ready = true) => {
  const { lines, logger } = capture()
  const api = await startTestApi({
    env,
    logger,
    storage: {
      store: createInMemoryPetStore(),
      checkReadiness: () => (ready ? TE.right(undefined) : TE.left(storeUnavailable('down'))),
      close: async () => {},
    },
  })
  try {
    for (const path of ['/healthz', '/readyz', '/healthz']) await api.request({ path })
    await api.request({ method: 'HEAD', path: '/healthz' })
    await api.request({ method: 'POST', path: '/healthz' })
    await api.get('/pets')
  } finally {
    await api.close()
  }
  return lines.map((line) => line.status)
}

describe('probes in the request log (LOG_PROBES)', () => {
  it('leaves out the probes that succeed by default; a failed one is logged', async () => {
    expect(await probeAll({})).to.deep.equal([405, 200])
    expect(await probeAll({}, false)).to.deep.equal([503, 405, 200])
  })

  it('logs every probe with LOG_PROBES=on', async () => {
    expect(await probeAll({ LOG_PROBES: 'on' })).to.deep.equal([200, 200, 200, 200, 405, 200])
    expect(await probeAll({ LOG_PROBES: 'off' })).to.deep.equal([405, 200])
  })

  it('refuses any other value, naming the variable', () => {
    const loaded = loadConfig({ LOG_PROBES: 'yes' })
    expect(E.isLeft(loaded) ? loaded.left.join('\n') : '').to.match(
      /^LOG_PROBES must be one of on, off/,
    )
  })
})
