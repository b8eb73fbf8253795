import Koa from 'koa'
import mount from 'koa-mount'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  createInMemoryApiKeys,
  createInMemoryIdempotencyStore,
  createInMemoryPetStore,
} from '../../../adapters/in-memory/index.js'
import { createKoaApp, type KoaAppDeps } from '../../../adapters/koa/index.js'
import { startTestApi, TEST_KEY } from '../../support/app.js'
import { interfaceContract, type ContractTarget } from '../../support/interface-contract.js'

/*
 * The black-box contract, run against the app an embedder builds from a store and keys alone,
 * mounted in a plain Koa host with koa-mount, and against the service's own composition root:
 * the defaults answer the whole interface as the configured service does.
 */

const KEY = 'my-secret-key-0123456789'

/** A host with the app mounted at /shop, listening on Node's own server (app.callback()). */
const mounted = async (extra: Partial<KoaAppDeps> = {}): Promise<ContractTarget> => {
  const store = createInMemoryPetStore()
  const apiKeys = createInMemoryApiKeys([KEY])
  const host = new Koa().use(mount('/shop', createKoaApp({ store, apiKeys, ...extra })))
  const server = createServer(host.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    mount: '/shop',
    key: KEY,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

interfaceContract('createKoaApp({ store, apiKeys }) under koa-mount', () => mounted(), {
  idempotency: false,
})

interfaceContract(
  'createKoaApp({ store, apiKeys, idempotencyStore }) under koa-mount',
  () => mounted({ idempotencyStore: createInMemoryIdempotencyStore() }),
  { idempotency: true },
)

interfaceContract(
  "the service's composition root",
  async () => {
    const api = await startTestApi()
    return { port: api.port, mount: '', key: TEST_KEY, close: api.close }
  },
  { idempotency: true },
)
