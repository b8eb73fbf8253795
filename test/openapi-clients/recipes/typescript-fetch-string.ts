// openapi-generator typescript-fetch, string form (generated with --type-mappings long=string):
// every id is a string of its digits, exact.
import { Configuration, PetsApi } from './generated/typescript-fetch-string/index.js'

const INT64_STRING = 'application/json; int64=string'
const pets = new PetsApi(
  new Configuration({
    basePath: process.env.BASE_URL ?? 'http://localhost:8080/v1',
    accessToken: process.env.KEY ?? '',
    headers: { Accept: INT64_STRING },
    // The generated code labels a body `application/json`: a body is sent in the string form.
    middleware: [
      {
        pre: async ({ url, init }) => {
          if (init.body === undefined) return { url, init }
          const headers = new Headers(init.headers)
          headers.set('Content-Type', INT64_STRING)
          return { url, init: { ...init, headers } }
        },
      },
    ],
  }),
)

const created = await pets.createPet({ newPet: { name: 'Rex', categoryId: '9223372036854775807' } })
const id: string = created.id

const page = await pets.listPets({ after: '9223372036854775806' })
const again = await pets.getPet({ petId: id })
console.log(JSON.stringify({ created, page, again }))
