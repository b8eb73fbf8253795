import { expect } from 'chai'
import { DEFAULT_MAX_ANSWER_BYTES } from '../../../adapters/http-client/index.js'
import { INT64_MAX, LIST_LIMITS } from '../../../core/index.js'
import { startTestApi } from '../../support/app.js'
import { largestPageBytes, longestName, longestStatus } from '../../support/largest-answer.js'
import { countingClient } from './support.js'

describe('the client: the default bound of an answer', () => {
  it('is about three times the largest page the service sends (docs/client.md)', () => {
    expect(DEFAULT_MAX_ANSWER_BYTES / largestPageBytes).to.be.within(2.9, 3)
  })

  it('lets a whole page of the longest pets through', async () => {
    const api = await startTestApi()
    try {
      const { client } = countingClient(api.port)
      for (let i = 0; i < LIST_LIMITS.max; i++)
        await client.createPet({ name: longestName, categoryId: INT64_MAX, status: longestStatus })
      const page = await client.listPets({ limit: LIST_LIMITS.max })
      expect(page.pets).to.have.length(LIST_LIMITS.max)
    } finally {
      await api.close()
    }
  })
})
