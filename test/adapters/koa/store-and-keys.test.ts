import Koa from 'koa'
import mount from 'koa-mount'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInMemoryApiKeys } from '../../../adapters/in-memory/index.js'
import { createKoaApp } from '../../../adapters/koa/index.js'
import { startTestApi, TEST_KEY } from '../../support/app.js'
import { forEachBackend, storageFor, type Backend } from '../../support/backends.js'
import { interfaceContract, type ContractTarget } from '../../support/interface-contract.js'

/*
 * The black-box contract, run against the app an embedder builds from a store and keys alone,
 * mounted in a plain Koa host with koa-mount, and against the service's own composition root,
 * on each store: the defaults answer the whole interface as the configured service does.
 */

const KEY = 'my-secret-key-0123456789'

/**
 * A host with the app mounted at /shop, on Node's own server (app.callback()): the store and
 * the keys, and the idempotency store when `keyed` (nothing else: readiness is the store's).
 */
const mounted = async (backend: Backend, keyed: boolean): Promise<ContractTarget> => {
  const storage = await storageFor(backend)
  const api = createKoaApp({
    store: storage.store,
    apiKeys: createInMemoryApiKeys([KEY]),
    ...(keyed && storage.idempotencyStore ? { idempotencyStore: storage.idempotencyStore } : {}),
  })
  const server = createServer(new Koa().use(mount('/shop', api)).callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    mount: '/shop',
    key: KEY,
    close: async () => {
      await new Promise((resolve) => server.close(resolve))
      await storage.close()
    },
  }
}

forEachBackend('an app from a store and keys', (backend) => {
  interfaceContract(
    'createKoaApp({ store, apiKeys }) under koa-mount',
    () => mounted(backend, false),
    {
      idempotency: false,
    },
  )

  interfaceContract(
    'createKoaApp({ store, apiKeys, idempotencyStore }) under koa-mount',
    () => mounted(backend, true),
    { idempotency: true },
  )

  interfaceContract(
    "the service's composition root",
    async () => {
      const api = await startTestApi({ backend })
      return { port: api.port, mount: '', key: TEST_KEY, close: api.close }
    },
    { idempotency: true },
  )
})
