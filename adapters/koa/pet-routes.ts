import { parse as parseQuery } from 'node:querystring'
import Router from '@koa/router'
import * as E from 'fp-ts/lib/Either.js'
import * as O from 'fp-ts/lib/Option.js'
import type { Context } from 'koa'
import { createPet, getPet, listPets, type ListPetsQuery, type PetStore } from '../../core/index.js'
import { readJsonBody } from './json-body.js'
import { petJson, petsJson } from './pet-json.js'
import { sendJson, sendProblem } from './respond.js'
import { runTask } from './run-task.js'

export type PetRoutesOptions = {
  readonly basePath: string
  readonly maxBodyBytes: number
  readonly retryAfterSeconds: number
  /** Whether the deprecated `getPet` has reached its sunset (checked per request). */
  readonly getPetIsGone: () => boolean
}

/**
 * The `next` link keeps the body a plain array (RFC 8288); `after` is the last id shown. Every
 * value in it was decoded (an integer, a status from the enum), so nothing needs escaping.
 */
const nextLink = (basePath: string, { limit, status, after }: ListPetsQuery): string =>
  `<${basePath}/pets?limit=${limit}${status === undefined ? '' : `&status=${status}`}${
    after === undefined ? '' : `&after=${after}`
  }>; rel="next"`

export const createPetRouter = (store: PetStore, options: PetRoutesOptions): Router => {
  const { basePath, maxBodyBytes, retryAfterSeconds } = options
  const list = listPets(store)
  const create = createPet(store)
  const get = getPet(store)
  const router = new Router({ prefix: basePath, sensitive: true, strict: true })

  // node:querystring rather than ctx.query: Koa 3's getter goes through URLSearchParams and was
  // a visible cost in the profile. Both give arrays for repeated names (refused by the codec).
  // maxKeys 0: every pair is parsed (its default stops at 1,000 and drops the rest silently);
  // the header size limit (16 KiB) bounds the work.
  router.get('/pets', (ctx: Context) =>
    runTask(
      ctx,
      list(parseQuery(ctx.querystring, '&', '=', { maxKeys: 0 })),
      retryAfterSeconds,
      (page) => {
        if (O.isSome(page.next)) ctx.set('Link', nextLink(basePath, page.next.value))
        sendJson(ctx, 200, petsJson(page.pets))
      },
    ),
  )

  router.post('/pets', async (ctx: Context) => {
    const body = await readJsonBody(ctx.req, maxBodyBytes)
    if (E.isLeft(body)) return sendProblem(ctx, body.left, retryAfterSeconds)
    return runTask(ctx, create(body.right), retryAfterSeconds, (pet) => {
      ctx.set('Location', `${basePath}/pets/${pet.id}`)
      sendJson(ctx, 201, petJson(pet))
    })
  })

  router.get('/pets/:petId', (ctx: Context) => {
    if (options.getPetIsGone())
      return sendProblem(
        ctx,
        { _tag: 'Gone', detail: `this operation was removed; use GET ${basePath}/pets?status=...` },
        retryAfterSeconds,
      )
    return runTask(ctx, get(ctx.params.petId), retryAfterSeconds, (pet) =>
      sendJson(ctx, 200, petJson(pet)),
    )
  })

  // Part of the wider interface, but unspecified: known, authenticated, not implemented.
  router.get('/store/orders', (ctx: Context) =>
    sendProblem(ctx, { _tag: 'NotImplemented' }, retryAfterSeconds),
  )

  return router
}
