import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { API_SETTING_DEFAULTS, HTTP_LIMIT_DEFAULTS } from '../../adapters/koa/index.js'
import { loadConfig } from '../../apps/server/config.js'

const source = readFileSync('apps/server/config.ts', 'utf8')
const tracing = ['settings.ts', 'pipeline.ts']
  .map((file) => readFileSync(`apps/server/tracing/${file}`, 'utf8'))
  .join('\n')

/**
 * The variables the service reads: each `read('NAME', ...)` or `serverUrl('NAME', ...)` of
 * apps/server/config.ts, and every OTEL_ or TRACE_ name of apps/server/tracing/settings.ts
 * (those it checks, and those it leaves to the SDK) and pipeline.ts (those it builds from).
 */
const read = [
  ...[...source.matchAll(/\b(?:read|serverUrl)\(\s*'([A-Z0-9_]+)'/g)].map((m) => m[1]),
  ...[...tracing.matchAll(/'((?:OTEL|TRACE)_[A-Z0-9_]+)'/g)].map((m) => m[1]),
]

/** The variables of the table in docs/configuration.md: the first cell of each row. */
const documented = [
  ...readFileSync('docs/configuration.md', 'utf8').matchAll(/^\| `([A-Z0-9_]+)` +\|/gm),
].map((m) => m[1])

describe('docs/configuration.md', () => {
  it('has one row for every variable the service reads, and none it does not', () => {
    expect(read.length).to.be.greaterThan(20)
    expect([...documented].sort()).to.deep.equal([...new Set(read)].sort())
  })

  it('gives each variable the default the service uses', () => {
    // `read('NAME', codec, default)` whose default is a number, a word, or one of the library's
    // defaults (HTTP_LIMIT_DEFAULTS.maxConnections), which the service reads its variables into.
    const defaults = [
      ...source.matchAll(
        /read\(\s*'([A-Z0-9_]+)',\s*\w+(?:\([^)]*\))?,\s*([\d_]+|'[a-z]+'|(?:HTTP_LIMIT|API_SETTING)_DEFAULTS\.\w+),?\s*\)/g,
      ),
    ]
    expect(defaults.length).to.be.greaterThan(20)
    const library: Record<string, unknown> = { HTTP_LIMIT_DEFAULTS, API_SETTING_DEFAULTS }
    const valueOf = (text: string) => {
      const [constant, field] = text.split('.')
      if (field === undefined) return text.replace(/_/g, '').replace(/'/g, '')
      return String((library[constant ?? ''] as Record<string, unknown>)[field])
    }
    const table = readFileSync('docs/configuration.md', 'utf8')
    for (const [, name, value] of defaults) {
      const shown = valueOf(value ?? '')
      expect(table, name).to.match(new RegExp(`^\\| \`${name}\` +\\| \`${shown}\` +\\|`, 'm'))
    }
  })

  it('gives each numeric variable the range the service takes: both ends in, one past each out', () => {
    // Each row whose range starts `N to M`; the variable that bounds it is set out of the way.
    const rows = [
      ...readFileSync('docs/configuration.md', 'utf8').matchAll(
        /^\| `([A-Z0-9_]+)` +\| [^|]+\| (\d[\d,]*) to (\d[\d,]*)([^|]*)\|/gm,
      ),
    ]
    expect(rows.length).to.be.greaterThan(30)
    const beside: Record<string, Record<string, string>> = {
      HEADERS_TIMEOUT_MS: { REQUEST_TIMEOUT_MS: '600000' },
      REQUEST_TIMEOUT_MS: { HEADERS_TIMEOUT_MS: '500' },
      SHUTDOWN_DRAIN_MS: { SHUTDOWN_TIMEOUT_MS: '600000' },
      SHUTDOWN_TIMEOUT_MS: { SHUTDOWN_DRAIN_MS: '0' },
      OTEL_TRACES_SAMPLER_ARG: { OTEL_TRACES_SAMPLER: 'traceidratio' },
    }
    const number = (text = '') => Number(text.replace(/,/g, ''))
    // A heap that holds the largest MAX_PETS and MAX_IN_FLIGHT_BYTES.
    const problems = (env: Record<string, string>) =>
      E.fold(
        (errors: ReadonlyArray<string>) => errors.join('\n'),
        () => '',
      )(loadConfig(env, 2 ** 50))
    for (const [, name = '', low, high, rest] of rows) {
      const [least, most] = [number(low), number(high)]
      const run = (value: number) => problems({ ...beside[name], [name]: String(value) })
      expect(run(least), `${name}=${least}`).to.equal('')
      // `< SHUTDOWN_TIMEOUT_MS`, whose own range ends at the same figure: one less is the most.
      expect(run(rest?.includes('<') ? most - 1 : most), `${name}=${most}`).to.equal('')
      expect(run(least - 1), `${name}=${least - 1}`).to.match(new RegExp(`^${name} `, 'm'))
      expect(run(most + 1), `${name}=${most + 1}`).to.match(new RegExp(`^${name} `, 'm'))
    }
  })
})
