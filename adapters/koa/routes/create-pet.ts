import * as E from 'fp-ts/lib/Either.js'
import { createPet } from '../../../core/index.js'
import { readJsonBody } from '../json-body.js'
import { jsonResponse } from '../openapi/responses.js'
import { petJson } from '../pet-json.js'
import type { Route } from './route.js'

export const createPetRoute: Route = {
  operationId: 'createPet',
  method: 'POST',
  path: '/pets',
  scope: 'pets:write',
  errors: [
    'BadRequest',
    'PayloadTooLarge',
    'UnsupportedMediaType',
    'Internal',
    'Unavailable',
    'InsufficientStorage',
  ],
  document: ({ maxBodyBytes }) => ({
    summary: 'Add an animal',
    description: `The body is a NewPet sent as \`application/json\`, at most ${maxBodyBytes} bytes. Unknown fields, \`id\` among them, are refused. Any \`Content-Encoding\` other than \`identity\` is 415.`,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
    },
    responses: {
      '201': {
        ...jsonResponse('The animal as stored, with its new id.', 'Pet', ['Location']),
        // The URL in Location is the getPet of the new id: a client (or a fuzzer) can follow it.
        links: {
          GetCreatedPet: {
            operationId: 'getPet',
            parameters: { petId: '$response.body#/id' },
            description: 'The animal just created; the same URL as the Location header.',
          },
        },
      },
    },
  }),
  handler: ({ store, basePath, maxBodyBytes, respond }) => {
    const create = createPet(store)
    return async (ctx) => {
      const body = await readJsonBody(ctx.req, maxBodyBytes)
      if (E.isLeft(body)) return respond.problem(ctx, body.left)
      return respond.task(ctx, create(body.right), (pet) => {
        ctx.set('Location', `${basePath}/pets/${pet.id}`)
        respond.json(ctx, 201, petJson(pet))
      })
    }
  },
}
