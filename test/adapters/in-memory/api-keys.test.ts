import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import { createInMemoryApiKeys, keyIdOf } from '../../../adapters/in-memory/index.js'
import { ALL_SCOPES } from '../../../core/index.js'

describe('in-memory API keys', () => {
  it('accepts exactly the configured keys, with every scope, whatever their lengths (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 80 }), { minLength: 1, maxLength: 5 }),
        fc.string({ maxLength: 100 }),
        async (keys, other) => {
          const apiKeys = createInMemoryApiKeys(keys)
          for (const key of keys)
            expect(await apiKeys.verifyApiKey(key)()).to.deep.equal(
              E.right(O.some({ keyId: keyIdOf(key), scopes: ALL_SCOPES })),
            )
          if (!keys.includes(other))
            expect(await apiKeys.verifyApiKey(other)()).to.deep.equal(E.right(O.none))
        },
      ),
    )
  })

  it('still decides rightly after more distinct keys than it remembers digests of', async () => {
    const apiKeys = createInMemoryApiKeys(['the-real-key'])
    for (let n = 0; n < 3000; n++)
      expect(await apiKeys.verifyApiKey(`guess-${n}`)()).to.deep.equal(E.right(O.none))
    expect(await apiKeys.verifyApiKey('the-real-key')()).to.deep.equal(
      E.right(O.some({ keyId: keyIdOf('the-real-key'), scopes: ALL_SCOPES })),
    )
    expect(await apiKeys.verifyApiKey('guess-5')()).to.deep.equal(E.right(O.none))
  })

  it('labels a key without revealing it', () => {
    expect(keyIdOf('super-secret-key')).to.match(/^key-[0-9a-f]{8}$/)
    expect(keyIdOf('super-secret-key')).to.not.include('secret')
  })
})
