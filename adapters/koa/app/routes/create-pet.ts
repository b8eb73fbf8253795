import * as E from 'fp-ts/lib/Either.js'
import {
  createPetFromUnknown,
  OPERATIONS,
  createPetIdempotently,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_PATTERN,
  type Pet,
} from '../../../../core/index.js'
import type { AppContext } from '../../request/app-state.js'
import { answerInForm, setHeader } from '../../response/answer/index.js'
import { idempotencyKeyOf, REPLAYED_HEADER } from '../../request/idempotency-header.js'
import { readJsonBody, type BodyResult } from '../json/json-body.js'
import { jsonResponse } from './operation-text.js'
import { writePetJson, writePetJsonInt64Strings } from '../json/pet-json.js'
import { fromInt64Strings } from '../json/int64-form.js'
import { sendsInt64Strings } from '../../request/int64-form.js'
import type { Route } from './route.js'

/** A window in the words of the document: `24 h`, else seconds. */
const durationText = (ms: number) =>
  ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${ms / 1000} s`

export const createPetRoute: Route<'createPet'> = {
  ...OPERATIONS.createPet,
  document: ({ maxBodyBytes, idempotencyPolicy }) => ({
    summary: 'Add an animal',
    description: `The body is a NewPet sent as \`application/json\`, at most ${maxBodyBytes} bytes. Unknown fields, \`id\` among them, are refused. Any \`Content-Encoding\` other than \`identity\` is 415.`,
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: `Makes a retry safe (IETF httpapi Idempotency-Key draft). A quoted string (RFC 8941) or a bare value of \`A-Z a-z 0-9 - . _ ~ : + / =\`, 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters, sent once. For ${durationText(idempotencyPolicy.windowMs)}, a request with the same key and the same body, from the same API key, gets the first answer again (status, body, Location) with \`Idempotent-Replayed: true\` and stores nothing; with another body it is 422; while the first is still in flight it is 409. Keys are scoped to the API key. Without a key, a 503 leaves the outcome unknown: the pet may have been stored, and a plain retry may store it twice.`,
        schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
      },
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
    },
    responses: {
      [OPERATIONS.createPet.success]: {
        ...jsonResponse(
          'The animal as stored, with its new id; or, replayed for an Idempotency-Key already used, the animal that request stored.',
          'Pet',
          ['Location', 'Idempotent-Replayed'],
        ),
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
  handler: ({
    store,
    idempotencyStore,
    idempotencyPolicy,
    publicBase,
    maxBodyBytes,
    respond,
    now,
  }) => {
    const create = createPetFromUnknown(store)
    const createOnce =
      idempotencyStore === undefined
        ? undefined
        : createPetIdempotently({
            insertPet: store.insertPet,
            idempotencyStore,
            idempotencyPolicy,
            now,
          })
    const created = (ctx: AppContext, pet: Pet, replayed: boolean) => {
      setHeader(ctx, 'Location', `${publicBase(ctx)}/pets/${pet.id}`)
      if (replayed) setHeader(ctx, REPLAYED_HEADER, 'true')
      answerInForm(ctx, OPERATIONS.createPet.success, pet, writePetJson, writePetJsonInt64Strings)
    }
    const answer = (ctx: AppContext, sent: BodyResult) => {
      const body = sendsInt64Strings(ctx.req.headers['content-type'])
        ? E.chainW(fromInt64Strings)(sent)
        : sent
      if (E.isLeft(body)) return respond.problem(ctx, body.left)
      const key = idempotencyKeyOf(ctx.req)
      // Without a key, the idempotency store is never touched: the hot path stays one insert.
      if (key === undefined)
        return respond.runTask(ctx, create(body.right), (pet) => created(ctx, pet, false))
      // An embedding without an idempotency store cannot keep the promise a key asks for.
      if (createOnce === undefined) return respond.problem(ctx, { _tag: 'NotImplemented' })
      const keyId = ctx.state.principal?.keyId
      if (keyId === undefined) return respond.problem(ctx, { _tag: 'Internal' })
      return respond.runTask(ctx, createOnce({ keyId, key, body: body.right }), (r) =>
        created(ctx, r.pet, r.replayed),
      )
    }
    // A body that came whole with the headers is answered without a promise of ours.
    return (ctx) => {
      const body = readJsonBody(ctx, maxBodyBytes)
      return body instanceof Promise ? body.then((whole) => answer(ctx, whole)) : answer(ctx, body)
    }
  },
}
