import { parseArgs } from 'node:util'
import { Scope } from '../../core/index.js'

export type Command =
  | {
      readonly name: 'create'
      readonly label: string
      readonly scopes: ReadonlyArray<Scope>
      readonly expiresInMs: number | null
    }
  | { readonly name: 'list' }
  /** `key`: an id, or a label that exactly one key has. */
  | { readonly name: 'revoke'; readonly key: string }
  | { readonly name: 'prune'; readonly graceMs: number }

export type Parsed =
  { readonly command: Command; readonly file: string | undefined } | { readonly help: true }

export const USAGE = `usage:
  npm run keys -- create --label <text> [--scope pets:read] [--scope pets:write] [--expires-in 90d] [--file <path>]
  npm run keys -- list [--file <path>]
  npm run keys -- revoke <id or label> [--file <path>]
  npm run keys -- prune [--grace 30d] [--file <path>]
  npm run keys -- --help
Keys live in the file of --file when given, else in MongoDB when MONGODB_URI is set, else in
the file of API_KEYS_FILE.
--scope defaults to pets:read; --expires-in takes s, m, h or d (default: never).
revoke takes a key's id, or a label that exactly one key has.
prune removes the keys that expired or were revoked more than --grace ago (default 30d).`

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/** How long a key expired or revoked stays listed (and refused as such) before prune removes it. */
export const PRUNE_GRACE_DEFAULT = '30d'

const durationMs = (raw: string): number | undefined => {
  const m = /^(0|[1-9][0-9]{0,5})([smhd])$/.exec(raw)
  return m === null ? undefined : Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]
}

const createOf = (values: Record<string, unknown>): Command | string => {
  const label = values.label
  if (typeof label !== 'string' || !/^[\x20-\x7e]{1,100}$/.test(label))
    return '--label is required: 1 to 100 printable ASCII characters'
  const scopes = (values.scope as string[] | undefined) ?? ['pets:read']
  const bad = scopes.find((s) => !Scope.is(s))
  if (bad !== undefined) return `unknown scope "${bad}" (pets:read or pets:write)`
  const raw = values['expires-in'] as string | undefined
  const expiresInMs = raw === undefined ? null : durationMs(raw)
  if (expiresInMs === undefined || expiresInMs === 0)
    return `--expires-in must look like 90d, 12h, 30m or 45s`
  return { name: 'create', label, scopes: [...new Set(scopes as Scope[])], expiresInMs }
}

/** Reads the command line; a string is the reason it is refused. */
export const parseCommand = (argv: ReadonlyArray<string>): Parsed | string => {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        label: { type: 'string' },
        scope: { type: 'string', multiple: true },
        'expires-in': { type: 'string' },
        grace: { type: 'string' },
        file: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    return (error as Error).message
  }
  const { values, positionals } = parsed
  if (values.help === true) return { help: true }
  const [name, ...rest] = positionals
  const file = values.file
  const extra = (n: number) => (rest.length > n ? `unexpected arguments: ${rest.join(' ')}` : '')
  if (name === 'list') return extra(0) || { command: { name: 'list' }, file }
  if (name === 'revoke') {
    const key = rest[0]
    if (key === undefined) return 'revoke needs the id or the label of a key (see list)'
    return extra(1) || { command: { name: 'revoke', key }, file }
  }
  if (name === 'prune') {
    const graceMs = durationMs(values.grace ?? PRUNE_GRACE_DEFAULT)
    if (graceMs === undefined) return '--grace must look like 30d, 12h, 30m, 45s or 0s'
    return extra(0) || { command: { name: 'prune', graceMs }, file }
  }
  if (name !== 'create') return `unknown command "${name ?? ''}"`
  const command = createOf(values)
  return typeof command === 'string' ? command : extra(0) || { command, file }
}
