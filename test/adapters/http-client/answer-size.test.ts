import { expect } from 'chai'
import { DEFAULT_MAX_ANSWER_BYTES } from '../../../adapters/http-client/index.js'
import {
  INT64_MAX,
  LIST_LIMITS,
  PET_NAME_MAX_LENGTH,
  PET_STATUSES,
  writePetJson,
  type PetFields,
} from '../../../core/index.js'
import { startTestApi } from '../../support/app.js'
import { countingClient } from './support.js'

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8')
/** The longest name: every character takes 4 bytes in UTF-8 (JSON escapes none of them). */
const longestName = String.fromCodePoint(0x1f400).repeat(PET_NAME_MAX_LENGTH)
const longestStatus = [...PET_STATUSES].sort((a, b) => b.length - a.length)[0]!

describe('the client: the default bound of an answer', () => {
  it('is about three times the largest page the service sends (docs/client.md)', () => {
    const largest: PetFields = {
      id: INT64_MAX as PetFields['id'],
      name: longestName,
      categoryId: INT64_MAX as PetFields['categoryId'],
      status: longestStatus,
    }
    const petBytes = utf8Bytes(writePetJson(largest))
    const pageBytes = 2 + LIST_LIMITS.max * petBytes + (LIST_LIMITS.max - 1)
    expect({ petBytes, pageBytes }).to.deep.equal({ petBytes: 890, pageBytes: 89_101 })
    expect(DEFAULT_MAX_ANSWER_BYTES).to.equal(256 * 1024)
    expect(DEFAULT_MAX_ANSWER_BYTES / pageBytes).to.be.within(2.9, 3)
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
