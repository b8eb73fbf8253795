import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { createInMemoryPetStore } from '../../../adapters/in-memory/index.js'
import {
  createPet,
  createPetFromUnknown,
  listPets,
  listPetsFromUnknown,
  type InvalidInput,
} from '../../../core/index.js'

/*
 * The typecheck (`tsc --noEmit`, part of `npm test`) compiles this file: each `@ts-expect-error`
 * line must be an error, or the typecheck fails. Run, each call is still refused by validation.
 */

const messagesOf = (result: E.Either<unknown, unknown>) =>
  E.isLeft(result) ? (result.left as InvalidInput).problems : ['accepted']

describe('the use cases take typed input, and still validate it at run time', () => {
  const store = createInMemoryPetStore()

  it('listPets: a misspelt or mistyped parameter does not compile, and is refused', async () => {
    // @ts-expect-error limt is not a parameter
    expect(messagesOf(await listPets(store)({ limt: 10 })())).to.deep.equal([
      'limt is not a known parameter',
    ])
    // @ts-expect-error status is one of available, pending, sold
    expect(messagesOf(await listPets(store)({ status: 'lost' })())).to.have.length(1)
    expect(messagesOf(await listPets(store)({ limit: 0 })())).to.have.length(1)
    expect(E.isRight(await listPets(store)({ limit: 10, after: 5n, status: 'sold' })())).to.equal(
      true,
    )
  })

  it('createPet: a misspelt or mistyped field does not compile, and is refused', async () => {
    // @ts-expect-error nme is not a field (and name is missing)
    expect(messagesOf(await createPet(store)({ nme: 'x', categoryId: 1n })())).to.have.length(2)
    // @ts-expect-error categoryId is a bigint or a number
    expect(messagesOf(await createPet(store)({ name: 'x', categoryId: '1' })())).to.have.length(1)
    // Values are checked at run time whatever the types say.
    expect(messagesOf(await createPet(store)({ name: ' ', categoryId: 0 })())).to.have.length(2)
    expect(E.isRight(await createPet(store)({ name: 'Rex', categoryId: 7 })())).to.equal(true)
  })

  it('take input of unknown shape through the FromUnknown functions, validated the same', async () => {
    const body: unknown = JSON.parse('{"nme":"x","categoryId":1}')
    // @ts-expect-error createPet wants a NewPetInput, not unknown
    const typed = await createPet(store)(body)()
    expect(messagesOf(await createPetFromUnknown(store)(body)())).to.deep.equal(messagesOf(typed))
    const query: unknown = { limit: '0005', after: '1' }
    expect(E.isRight(await listPetsFromUnknown(store)(query)())).to.equal(true)
  })
})
