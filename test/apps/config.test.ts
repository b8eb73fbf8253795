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
