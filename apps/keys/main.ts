import * as E from 'fp-ts/lib/Either.js'
import { createKeyFile } from '../../adapters/key-file/index.js'
import type { ApiKeyRegistry } from '../../core/index.js'
import { parseCommand, USAGE, type Command } from './args.js'
import { keyNamed } from './key-named.js'
import { keyTable, mintKey } from './mint.js'

/*
 * The key tool: `npm run keys -- create|list|revoke|prune`. The new key is the only thing written on
 * stdout (once), so that a script can capture it; everything else goes to stderr.
 */
const fail = (message: string, code: number): never => {
  console.error(message)
  process.exit(code)
}

const parsed = parseCommand(process.argv.slice(2))
if (typeof parsed === 'string') fail(`${parsed}\n${USAGE}`, 2)
if (typeof parsed !== 'string' && 'help' in parsed) {
  console.log(USAGE)
  process.exit(0)
}
const { command, file } = parsed as Extract<typeof parsed, { command: Command }>

const openRegistry = async (): Promise<{
  registry: ApiKeyRegistry
  close: () => Promise<void>
}> => {
  const path = file ?? (process.env.MONGODB_URI ? undefined : process.env.API_KEYS_FILE)
  if (path !== undefined && path !== '')
    return { registry: createKeyFile(path), close: async () => {} }
  const uri = process.env.MONGODB_URI
  if (uri === undefined || uri === '')
    return fail(`no key store: set MONGODB_URI or API_KEYS_FILE, or pass --file\n${USAGE}`, 2)
  const { connectMongo, createMongoApiKeyRegistry } =
    await import('../../adapters/mongodb/index.js')
  const storage = await connectMongo({ uri, timeoutMs: 5000, startupTimeoutMs: 5000 })
  return { registry: createMongoApiKeyRegistry(storage.db), close: storage.close }
}

const run = async (registry: ApiKeyRegistry, command: Command): Promise<void> => {
  const now = Date.now()
  if (command.name === 'create') {
    const { key, stored } = mintKey(command.label, command.scopes, command.expiresInMs, now)
    const added = await registry.addKey(stored)()
    if (E.isLeft(added)) return fail(`cannot store the key: ${added.left.detail}`, 1)
    // Said before the key, and whole whether stdout is a terminal or captured by a script.
    console.error(
      `created ${stored.id} (${stored.scopes.join(',')}); its key, shown once, is on stdout`,
    )
    console.log(key)
  } else if (command.name === 'list') {
    const keys = await registry.listKeys()()
    if (E.isLeft(keys)) return fail(`cannot read the keys: ${keys.left.detail}`, 1)
    console.log(keyTable(keys.right))
  } else if (command.name === 'prune') {
    const before = now - command.graceMs
    const pruned = await registry.pruneKeys(before)()
    if (E.isLeft(pruned)) return fail(`cannot prune: ${pruned.left.detail}`, 1)
    const keys = pruned.right === 1 ? 'key' : 'keys'
    console.error(
      `pruned ${pruned.right} ${keys} expired or revoked before ${new Date(before).toISOString()}`,
    )
  } else {
    const keys = await registry.listKeys()()
    if (E.isLeft(keys)) return fail(`cannot read the keys: ${keys.left.detail}`, 1)
    const key = keyNamed(keys.right, command.key)
    if (typeof key === 'string') return fail(key, 1)
    const revoked = await registry.revokeKey(key.id, now)()
    if (E.isLeft(revoked)) return fail(`cannot revoke: ${revoked.left.detail}`, 1)
    if (!revoked.right) return fail(`no key has the id ${key.id}`, 1)
    console.error(`revoked ${key.id} (${key.label})`)
  }
}

const { registry, close } = await openRegistry().catch((error: unknown) =>
  // A connection string that can never work is a usage error, as in the service (exit 2).
  error instanceof Error && error.name === 'InvalidMongoUri'
    ? fail(`MONGODB_URI ${error.message}`, 2)
    : fail(`cannot reach the key store: ${String(error)}`, 1),
)
try {
  await run(registry, command)
} finally {
  await close()
}
