import { expect } from 'chai'
import { loadConfig } from '../../apps/server/config.js'

describe('configuration from the environment', () => {
  it('has defaults that need no set-up', () => {
    const loaded = loadConfig({})
    expect(loaded).to.have.property('config')
    if ('config' in loaded) {
      expect(loaded.config).to.include({
        port: 8080,
        basePath: '/v1',
        logLevel: 'info',
        retryAfterSeconds: 2,
      })
      expect(loaded.config.apiKeys).to.deep.equal([])
      expect(loaded.config.getPetDeprecatedAt.toISOString()).to.equal('2026-01-01T00:00:00.000Z')
    }
  })

  it('reads every variable', () => {
    const loaded = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      BASE_PATH: '/api/v1',
      API_KEYS: ' a-key , b-key ,',
      LOG_LEVEL: 'warn',
      MONGODB_URI: 'mongodb://x/db',
    })
    expect('config' in loaded && loaded.config).to.deep.include({
      port: 9000,
      host: '127.0.0.1',
      basePath: '/api/v1',
      apiKeys: ['a-key', 'b-key'],
      logLevel: 'warn',
      mongodbUri: 'mongodb://x/db',
    })
  })

  it('reports every invalid variable with a clear message', () => {
    const loaded = loadConfig({
      PORT: '70000',
      BASE_PATH: 'v1/',
      API_KEYS: 'ok,bad key',
      LOG_LEVEL: 'loud',
      GET_PET_DEPRECATED_AT: '2031-01-01T00:00:00Z',
      RETRY_AFTER_SECONDS: '0',
    })
    expect(loaded).to.have.property('errors')
    const errors = 'errors' in loaded ? loaded.errors.join('\n') : ''
    for (const name of [
      'PORT',
      'BASE_PATH',
      'API_KEYS entry 2',
      'LOG_LEVEL',
      'GET_PET_DEPRECATED_AT must not be after the sunset',
      'RETRY_AFTER_SECONDS',
    ])
      expect(errors).to.include(name)
  })
})

describe('configuration: limits and timeouts', () => {
  it('has documented defaults', () => {
    const loaded = loadConfig({})
    expect('config' in loaded && loaded.config).to.include({
      maxPets: 1_000_000,
      maxConnections: 1000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      shutdownDrainMs: 2000,
      shutdownTimeoutMs: 10_000,
    })
  })

  it('reads each one and refuses values out of range', () => {
    const loaded = loadConfig({
      MAX_PETS: '5',
      MAX_CONNECTIONS: '50',
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '2000',
      KEEP_ALIVE_TIMEOUT_MS: '3000',
      SHUTDOWN_DRAIN_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '4000',
    })
    expect('config' in loaded && loaded.config).to.include({
      maxPets: 5,
      maxConnections: 50,
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      keepAliveTimeoutMs: 3000,
      shutdownDrainMs: 0,
      shutdownTimeoutMs: 4000,
    })
    const bad = loadConfig({
      MAX_PETS: '0',
      MAX_CONNECTIONS: '1',
      HEADERS_TIMEOUT_MS: 'soon',
      REQUEST_TIMEOUT_MS: '-1',
      KEEP_ALIVE_TIMEOUT_MS: '10',
      SHUTDOWN_DRAIN_MS: '1e3',
      SHUTDOWN_TIMEOUT_MS: '999999999',
    })
    const errors = 'errors' in bad ? bad.errors.join('\n') : ''
    for (const name of [
      'MAX_PETS',
      'MAX_CONNECTIONS',
      'HEADERS_TIMEOUT_MS',
      'REQUEST_TIMEOUT_MS',
      'KEEP_ALIVE_TIMEOUT_MS',
      'SHUTDOWN_DRAIN_MS',
      'SHUTDOWN_TIMEOUT_MS',
    ])
      expect(errors).to.include(name)
  })
})
