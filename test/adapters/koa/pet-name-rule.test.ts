import { expect } from 'chai'
import { PET_NAME_RULES } from '../../../core/index.js'
import { startTestApi, type TestApi } from '../../support/app.js'

describe('POST /v1/pets: a name with nothing to show (or only combining marks), or a bidirectional control', () => {
  let api: TestApi
  before(async () => (api = await startTestApi()))
  after(() => api.close())

  it('answers 400 naming the rule, and stores nothing', async () => {
    for (const [name, rule] of [
      ['\u200b', PET_NAME_RULES.blank],
      ['\u3164', PET_NAME_RULES.blank],
      ['\u2800\u2800', PET_NAME_RULES.blank],
      ['\u2065\ufff0', PET_NAME_RULES.blank],
      ['\u{e0000}\u{e0fff}', PET_NAME_RULES.blank],
      ['\u0301\u0302', PET_NAME_RULES.blank],
      ['\u202egnp.exe', PET_NAME_RULES.bidi],
    ] as const) {
      const reply = await api.createPet({ name, categoryId: 1 })
      expect(reply.status, JSON.stringify(name)).to.equal(400)
      expect((reply.json as { message: string }).message).to.include(`name ${rule}`)
    }
    expect((await api.get('/pets')).json).to.deep.equal([])
  })
})
