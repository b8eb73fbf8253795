// A plain ESM program that uses only the core and the in-memory store: no koa, no mongodb.
import { createPet, listPets } from 'animal-store'
import { createInMemoryPetStore } from 'animal-store/in-memory'
import { readPetJson, writePetJson } from 'animal-store'
import { createClient, isClientError } from 'animal-store/client'

const store = createInMemoryPetStore()
const created = await createPet(store)({ name: 'Rex', categoryId: 9223372036854775807n })()
const page = await listPets(store)({ limit: 5 })()
if (created._tag !== 'Right' || page._tag !== 'Right') throw new Error('unexpected Left')
console.log(`core ok: ${page.right.pets.map((p) => `${p.id} ${p.categoryId}`).join(',')}`)

// The JSON writer and reader, and the client: only the core's peers are needed for them.

const back = readPetJson(writePetJson(created.right))
if (back._tag !== 'Right' || back.right.categoryId !== 9223372036854775807n)
  throw new Error('the JSON round trip lost the id')
// Nothing listens on port 9 of loopback: one attempt, refused, ends the budget.
const client = createClient({
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKey: 'k',
  budget: { attempts: 1 },
})
const failure = await client.listPets().catch((error) => error)
if (
  !isClientError(failure) ||
  failure.code !== 'budget_exhausted' ||
  failure.last.code !== 'network'
)
  throw new Error(`unexpected: ${failure}`)
console.log(`client ok: ${failure.code} (${failure.last.code})`)
