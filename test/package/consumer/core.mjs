// A plain ESM program that uses only the core and the in-memory store: no koa, no mongodb.
import { createPet, listPets } from 'animal-store'
import { createInMemoryPetStore } from 'animal-store/in-memory'

const store = createInMemoryPetStore()
const created = await createPet(store)({ name: 'Rex', categoryId: 9223372036854775807n })()
const page = await listPets(store)({ limit: 5 })()
if (created._tag !== 'Right' || page._tag !== 'Right') throw new Error('unexpected Left')
console.log(`core ok: ${page.right.pets.map((p) => `${p.id} ${p.categoryId}`).join(',')}`)
