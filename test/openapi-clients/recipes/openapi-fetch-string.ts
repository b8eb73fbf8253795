// openapi-typescript + openapi-fetch, string form: every id is a string of its digits, exact.
import createClient from 'openapi-fetch'
import type { paths } from './generated/openapi-typescript.js'

const INT64_STRING = 'application/json; int64=string'
const client = createClient<paths, typeof INT64_STRING>({
  baseUrl: process.env.BASE_URL ?? 'http://localhost:8080/v1',
  headers: { Authorization: `Bearer ${process.env.KEY}`, Accept: INT64_STRING },
})

const created = await client.POST('/pets', {
  headers: { 'Content-Type': INT64_STRING },
  body: { name: 'Rex', categoryId: '9223372036854775807' },
})
if (created.data === undefined) throw new Error(`create: ${created.response.status}`)
const id: string = created.data.id

const page = await client.GET('/pets', { params: { query: { after: '9223372036854775806' } } })
const again = await client.GET('/pets/{petId}', { params: { path: { petId: id } } })
console.log(JSON.stringify({ created: created.data, page: page.data, again: again.data }))
