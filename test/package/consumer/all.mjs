// Every entry point loads, with its optional peers installed.
import * as core from 'animal-store'
import * as inMemory from 'animal-store/in-memory'
import * as keyFile from 'animal-store/key-file'
import * as koa from 'animal-store/koa'
import * as mongodb from 'animal-store/mongodb'
import * as testing from 'animal-store/testing'
import * as client from 'animal-store/client'

const app = koa.createKoaApp(
  {
    store: inMemory.createInMemoryPetStore(),
    apiKeys: inMemory.createInMemoryApiKeys(['k']),
    logger: core.silentLogger,
    now: Date.now,
    checkReadiness: () => async () => ({ _tag: 'Right', right: undefined }),
  },
  {
    basePath: '/v1',
    maxBodyBytes: 8192,
    retryAfterSeconds: 1,
    listLimits: core.LIST_LIMITS,
    deprecation: {
      deprecatedAt: core.GET_PET_DEPRECATION.defaultDeprecatedAt,
      sunsetAt: core.GET_PET_DEPRECATION.sunsetAt,
    },
    idempotencyPolicy: core.IDEMPOTENCY_DEFAULTS,
  },
)
const minimal = koa.createKoaApp({
  store: inMemory.createInMemoryPetStore(),
  apiKeys: inMemory.createInMemoryApiKeys(['k']),
})
const ok = [
  typeof minimal.callback,
  typeof core.createPet,
  typeof core.silentLogger.info,
  typeof app.callback,
  typeof mongodb.connectMongo,
  typeof keyFile.createKeyFile,
  typeof testing.petStoreContract,
  typeof testing.newPet,
  typeof client.createClient,
].every((t) => t === 'function')
if (!ok) throw new Error('an entry point is missing an export')
console.log(`all ok: ${mongodb.DEFAULT_DATABASE}`)
