// openapi-generator typescript-fetch, plain form: ids are numbers, exact up to 2^53.
import { Configuration, PetsApi } from './generated/typescript-fetch/index.js'

const pets = new PetsApi(
  new Configuration({
    basePath: process.env.BASE_URL ?? 'http://localhost:8080/v1',
    accessToken: process.env.KEY ?? '',
  }),
)

const created = await pets.createPet({ newPet: { name: 'Rex', categoryId: 7 } })
const id: number = created.id

// `after` and `petId` are strings of digits: exact above 2^53 too.
const page = await pets.listPets({ after: '9007199254740993' })
const again = await pets.getPet({ petId: String(id) })
console.log(JSON.stringify({ created, page, again }))
