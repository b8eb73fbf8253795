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

  describe('the OpenAPI servers follow BASE_PATH', () => {
    const urls = (env: Record<string, string>) => {
      const loaded = loadConfig(env)
      return 'config' in loaded
        ? [loaded.config.productionUrl, loaded.config.stagingUrl]
        : loaded.errors
    }

    it('end in the base path by default', () => {
      expect(urls({})).to.deep.equal([
        'https://api.animal-store.example/v1',
        'https://staging.api.animal-store.example/v1',
      ])
      expect(urls({ BASE_PATH: '/api/v2' })).to.deep.equal([
        'https://api.animal-store.example/api/v2',
        'https://staging.api.animal-store.example/api/v2',
      ])
    })

    it('take URLs that end in the base path, behind a prefix too', () => {
      const env = {
        BASE_PATH: '/api/v2',
        PRODUCTION_URL: 'https://pets.example/api/v2',
        STAGING_URL: 'http://gateway.example:8443/pets/api/v2',
      }
      expect(urls(env)).to.deep.equal([env.PRODUCTION_URL, env.STAGING_URL])
    })

    it('refuse URLs that do not end in the base path, naming it', () => {
      expect(
        urls({
          BASE_PATH: '/api/v2',
          PRODUCTION_URL: 'https://pets.example/v1',
          STAGING_URL: 'https://api/v2',
        }),
      ).to.deep.equal([
        'PRODUCTION_URL must be an http(s) URL ending in BASE_PATH /api/v2 (got "https://pets.example/v1")',
        'STAGING_URL must be an http(s) URL ending in BASE_PATH /api/v2 (got "https://api/v2")',
      ])
      expect(
        urls({ PRODUCTION_URL: 'https://pets.example/xv1', STAGING_URL: 'ftp://s/v1' }),
      ).to.have.length(2)
    })

    it('report only BASE_PATH when it is itself invalid', () => {
      expect(urls({ BASE_PATH: 'v2', PRODUCTION_URL: 'https://p.example/v2' })).to.deep.equal([
        'BASE_PATH must look like /v1 (segments, no trailing slash) (got "v2")',
      ])
    })
  })
})
