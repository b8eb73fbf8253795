// openapi-typescript + openapi-fetch, plain form: ids are numbers, exact up to 2^53.
import createClient from 'openapi-fetch'
import type { paths } from './generated/openapi-typescript.js'

// The media type picks the plain form's types; without it every id is `string | number`.
const client = createClient<paths, 'application/json'>({
  baseUrl: process.env.BASE_URL ?? 'http://localhost:8080/v1',
  headers: { Authorization: `Bearer ${process.env.KEY}` },
})

const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 7 } })
if (created.data === undefined) throw new Error(`create: ${created.response.status}`)
const id: number = created.data.id

// `after` and `petId` are strings of digits: exact above 2^53 too.
const page = await client.GET('/pets', { params: { query: { after: '9007199254740993' } } })
const again = await client.GET('/pets/{petId}', { params: { path: { petId: String(id) } } })
console.log(JSON.stringify({ created: created.data, page: page.data, again: again.data }))
