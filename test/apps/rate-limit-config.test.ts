import * as E from 'fp-ts/lib/Either.js'
import { expect } from 'chai'
import { loadConfig } from '../../apps/server/config.js'

const configOf = (env: Record<string, string>) => {
  const loaded = loadConfig(env)
  if (E.isLeft(loaded)) throw new Error(loaded.left.join('; '))
  return loaded.right
}

describe('configuration of keys and rate limits', () => {
  it('limits rates by default, generously', () => {
    expect(configOf({}).rateLimits).to.deep.equal({
      perKey: { ratePerSecond: 50_000, burst: 100_000 },
      authFailures: { ratePerSecond: 1, burst: 30 },
      docs: { ratePerSecond: 1, burst: 20 },
    })
    expect(configOf({}).apiKeysFile).to.equal(undefined)
  })

  it('takes the rates, the off switch and the key file from the environment', () => {
    const config = configOf({
      RATE_LIMIT_RPS: '5',
      RATE_LIMIT_BURST: '7',
      AUTH_FAILURE_RPM: '6',
      AUTH_FAILURE_BURST: '2',
      DOCS_RPM: '30',
      DOCS_BURST: '4',
      API_KEYS_FILE: '/etc/animal-store/keys.jsonl',
    })
    expect(config.rateLimits).to.deep.equal({
      perKey: { ratePerSecond: 5, burst: 7 },
      authFailures: { ratePerSecond: 0.1, burst: 2 },
      docs: { ratePerSecond: 0.5, burst: 4 },
    })
    expect(config.apiKeysFile).to.equal('/etc/animal-store/keys.jsonl')
    expect(configOf({ RATE_LIMIT: 'off' }).rateLimits).to.equal(undefined)
    expect(configOf({ RATE_LIMIT: 'on' }).rateLimits).to.not.equal(undefined)
  })

  it('reports every bad value by name', () => {
    const loaded = loadConfig({
      RATE_LIMIT: 'maybe',
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_BURST: '1.5',
      AUTH_FAILURE_RPM: '-1',
    })
    expect(E.isLeft(loaded) && loaded.left.join('\n')).to.match(/RATE_LIMIT must be one of on, off/)
    const all = loadConfig({
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_BURST: '1.5',
      AUTH_FAILURE_RPM: 'x',
      DOCS_RPM: '0',
      DOCS_BURST: 'many',
    })
    const text = E.isLeft(all) ? all.left.join('\n') : ''
    for (const name of [
      'RATE_LIMIT_RPS',
      'RATE_LIMIT_BURST',
      'AUTH_FAILURE_RPM',
      'DOCS_RPM',
      'DOCS_BURST',
    ])
      expect(text).to.include(`${name} must be an integer`)
  })
})
