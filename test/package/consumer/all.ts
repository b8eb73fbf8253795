// Typechecks every entry point, with the optional peers installed.
import type * as fc from 'fast-check'
import { INT64_MAX, silentLogger, type PetStore } from 'animal-store'
import { createInMemoryApiKeys, createInMemoryPetStore } from 'animal-store/in-memory'
import {
  createHttpServer,
  createKoaApp,
  type KoaAppDeps,
  type KoaAppOptions,
} from 'animal-store/koa'
import { connectMongo, type MongoStorage } from 'animal-store/mongodb'
import { newPet, petStoreContract, type StoreFactory } from 'animal-store/testing'
import { createClient } from 'animal-store/client'

const store: PetStore = createInMemoryPetStore()
declare const options: KoaAppOptions
export const app = createKoaApp(
  {
    store,
    apiKeys: createInMemoryApiKeys(['k']),
    logger: silentLogger,
    now: Date.now,
    checkReadiness: () => async () => ({ _tag: 'Right', right: undefined }),
  },
  options,
)
// A store and keys are all the app and its server need; the rest has the interface's defaults.
export const minimal = createKoaApp({ store, apiKeys: createInMemoryApiKeys(['k']) })
export const minimalServer = createHttpServer(minimal).server
export const connect: (uri: string) => Promise<MongoStorage> = (uri) =>
  connectMongo({ uri, timeoutMs: 1000, startupTimeoutMs: 1000 })
export const pets: fc.Arbitrary<{ categoryId: bigint }> = newPet()
const factory: StoreFactory = async () => ({ store, dispose: async () => {} })
export const register = (): void =>
  petStoreContract('mine', factory, { properties: INT64_MAX > 0n ? 1 : 2 })
export const clientOf = (baseUrl: string) => createClient({ baseUrl, apiKey: 'k' })
// Every optional dep and option given as `undefined` means its default (docs/embedding.md), with
// exactOptionalPropertyTypes on: a value that may be absent passes through as it is.
type EachMaybe<T> = { readonly [K in keyof T]-?: T[K] | undefined }
declare const someDeps: EachMaybe<Omit<KoaAppDeps, 'store' | 'apiKeys'>>
declare const someOptions: EachMaybe<KoaAppOptions>
export const allDefaults = createKoaApp(
  { store, apiKeys: createInMemoryApiKeys(['k']), ...someDeps },
  someOptions,
)
