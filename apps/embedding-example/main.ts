/**
 * An embedding program: the core with in-memory adapters, no HTTP. docs/embedding.md shows this file,
 * and test/apps/embedding-example.test.ts runs it. A program outside this repository imports
 * the same entry points, as this file does through the package's own exports.
 */
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { createPet, getPet, listPets } from 'animal-store'
import { createInMemoryPetStore } from 'animal-store/in-memory'

const store = createInMemoryPetStore()

const program = pipe(
  createPet(store)({ name: 'Rex', categoryId: 9223372036854775807n, status: 'available' }),
  TE.chainW(() => createPet(store)({ name: 'Tom', categoryId: 2n })),
  TE.chainW((tom) => getPet(store)(tom.id)),
  TE.chainW(() => listPets(store)({ status: 'available', limit: 10 })),
  TE.map((page) => page.pets.map((pet) => `${pet.id} ${pet.name} ${pet.categoryId}`)),
)

const invalid = createPet(store)({ name: ' ', categoryId: 0 })

const result = await program()
if (result._tag === 'Left') throw new Error(`unexpected: ${JSON.stringify(result.left)}`)
console.log(result.right.join('\n')) // 1 Rex 9223372036854775807

const refused = await invalid()
if (refused._tag === 'Left' && refused.left._tag === 'InvalidInput')
  console.log(refused.left.problems.join('\n'))
