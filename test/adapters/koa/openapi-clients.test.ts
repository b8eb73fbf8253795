import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { INT64_MAX, PetIdParam } from '../../../core/index.js'
import { positiveInt64 } from '../../../adapters/testing/index.js'
import { openApiDocument } from '../../../adapters/koa/index.js'
import { INT64_DECIMAL_PATTERN } from '../../../adapters/koa/app/json/int64-form.js'
import { INT64_STRING_TYPE } from '../../../adapters/koa/request/int64-form.js'
import { INT64_NOTE } from '../../../adapters/koa/app/openapi/int64-fields.js'
import { OPERATIONS } from '../../../core/index.js'
import { testApiOptions } from '../../support/app.js'

/*
 * What the document promises a generated client (openapi-typescript, openapi-generator): every
 * int64 says how to stay exact, the string form is there for each body with int64 fields, and
 * every operation has a tag that the document defines.
 */

type Schema = {
  type?: string
  format?: string
  description?: string
  pattern?: string
  maxLength?: number
}
type Content = Record<string, { schema: { $ref: string } }>
type Operation = {
  operationId: string
  tags?: string[]
  requestBody?: { content: Content }
  responses: Record<string, { content?: Content }>
}

const doc = openApiDocument({ ...testApiOptions(), servers: [] }) as unknown as {
  info: { description: string }
  tags: Array<{ name: string; description: string }>
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, unknown>; parameters: Record<string, { schema: Schema }> }
}
const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops))

/** Every schema object in the document, however deeply nested, with where it is. */
const schemasIn = (value: unknown, at = '#'): Array<[string, Schema]> => {
  if (value === null || typeof value !== 'object') return []
  const here: Array<[string, Schema]> = 'format' in value ? [[at, value as Schema]] : []
  return here.concat(
    Object.entries(value).flatMap(([key, child]) => schemasIn(child, `${at}/${key}`)),
  )
}
const int64s = schemasIn(doc).filter(([, schema]) => schema.format === 'int64')

describe('OpenAPI document: what generated clients need', () => {
  it('says on every int64 number that past 2^53 it needs an exact parser or the string form', () => {
    const numbers = int64s.filter(([, schema]) => schema.type === 'integer')
    // id and categoryId, in Pet and NewPet
    expect(numbers.length).to.be.at.least(3)
    for (const [at, schema] of numbers) expect(schema.description, at).to.include(INT64_NOTE)
    expect(INT64_NOTE).to.include('2^53').and.include(INT64_STRING_TYPE)
  })

  it('writes every int64 of the string form as a string of digits, with the exact pattern', () => {
    const strings = int64s.filter(([, schema]) => schema.type === 'string')
    expect(strings.map(([at]) => at.split('/').slice(-3).join('/')).sort()).to.deep.equal([
      'NewPetInt64String/properties/categoryId',
      'PetInt64String/properties/categoryId',
      'PetInt64String/properties/id',
      'parameters/after/schema',
      'parameters/petId/schema',
    ])
    for (const [at, schema] of strings.filter(([at]) => !at.includes('/parameters/')))
      expect(schema.pattern, at).to.equal(INT64_DECIMAL_PATTERN)
  })

  it('types the int64 parameters as strings that match exactly what the service reads', () => {
    // A URL carries text: a generated client types a string parameter `string`, never rounded.
    for (const name of ['after', 'petId']) {
      const schema = doc.components.parameters[name]?.schema ?? {}
      expect(schema, name).to.include({ type: 'string', format: 'int64' })
      const matches = (text: string) =>
        new RegExp(schema.pattern ?? '$^').test(text) && text.length <= (schema.maxLength ?? 0)
      const reads = (text: string) => E.isRight(PetIdParam.decode(text))
      const zeros = fc.integer({ min: 0, max: 30 }).map((n) => '0'.repeat(n))
      fc.assert(
        fc.property(zeros, positiveInt64(), (lead, id) => {
          expect(matches(`${lead}${id}`)).to.equal(reads(`${lead}${id}`))
        }),
      )
      const digits = fc.stringMatching(/^[0-9]{0,45}$/)
      const text = fc.oneof(digits, fc.string(), fc.constant(`${INT64_MAX + 1n}`))
      fc.assert(
        fc.property(text, (t) => {
          expect(matches(t), t).to.equal(reads(t))
        }),
      )
      expect(matches(`${'0'.repeat(21)}${INT64_MAX}`)).to.equal(true)
    }
  })

  it('explains in info.description how to stay exact, and how to ask for the string form', () => {
    const description = doc.info.description
    expect(description).to.include('**Identifiers above 2^53.**')
    expect(description).to.include(`Accept: ${INT64_STRING_TYPE}`)
    expect(description).to.include(`Content-Type: ${INT64_STRING_TYPE}`)
  })

  it('offers the string form beside every JSON body, with the schema of that form', () => {
    const form = (content: Content | undefined) => {
      const plain = content?.['application/json']?.schema.$ref
      const strings = content?.[INT64_STRING_TYPE]?.schema.$ref
      return plain === undefined ? undefined : [plain, strings]
    }
    const expected: Record<string, string> = {
      NewPet: 'NewPetInt64String',
      Pet: 'PetInt64String',
      Pets: 'PetsInt64String',
      Error: 'Error',
    }
    let bodies = 0
    for (const op of operations.filter((o) => o.operationId !== 'getOpenApiDocument'))
      for (const content of [
        op.requestBody?.content,
        ...Object.values(op.responses).map((r) => r.content),
      ]) {
        const pair = form(content)
        if (pair === undefined) continue
        const name = String(pair[0]).split('/').at(-1) ?? ''
        expect(pair[1], `${op.operationId} ${name}`).to.equal(
          `#/components/schemas/${expected[name]}`,
        )
        bodies++
      }
    expect(bodies).to.be.greaterThan(20)
  })

  it('tags every operation, by its first path segment, with tags the document defines', () => {
    const defined = doc.tags.map((tag) => tag.name)
    for (const tag of doc.tags) expect(tag.description, tag.name).to.not.equal('')
    for (const op of operations) expect(defined, op.operationId).to.include.members(op.tags ?? [])
    const tagOf = Object.fromEntries(operations.map((op) => [op.operationId, op.tags]))
    const firstSegment = (path: string) => [path.split('/')[1]]
    expect(tagOf).to.deep.equal({
      ...Object.fromEntries(
        Object.values(OPERATIONS).map((op) => [op.operationId, firstSegment(op.path)]),
      ),
      getOpenApiDocument: ['openapi'],
    })
  })
})
