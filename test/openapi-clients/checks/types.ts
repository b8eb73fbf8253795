// What the generated types refuse (compiled, never run): a number where an id would round past
// 2^53, and one form's ids in the other.
import createClient from 'openapi-fetch'
import type { paths } from './generated/openapi-typescript.js'
import { PetsApi } from './generated/typescript-fetch/index.js'
import type { NewPet } from './generated/typescript-fetch-string/index.js'

const plain = createClient<paths, 'application/json'>({})
// @ts-expect-error after is a string of digits
void plain.GET('/pets', { params: { query: { after: 9007199254740993 } } })
// @ts-expect-error petId likewise
void plain.GET('/pets/{petId}', { params: { path: { petId: 1 } } })

// A body is typed as either form (openapi-fetch types request bodies over every media type).
const strings = createClient<paths, 'application/json; int64=string'>({})
const created = await strings.POST('/pets', { body: { name: 'Rex', categoryId: '7' } })
// @ts-expect-error but an answer is typed as the client's form: in the string form, a string
export const created_id: number | undefined = created.data?.id

// Without the media type, every id is `string | number`.
const loose = await createClient<paths>({}).POST('/pets', { body: { name: 'Rex', categoryId: 7 } })
// @ts-expect-error an id is string | number there
export const id: number | undefined = loose.data?.id

// @ts-expect-error typescript-fetch: after is a string of digits too
void new PetsApi().listPets({ after: 9007199254740993 })
// @ts-expect-error generated with --type-mappings long=string, categoryId is a string
export const newPet: NewPet = { name: 'Rex', categoryId: 7 }
