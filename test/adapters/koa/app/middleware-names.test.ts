import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  createInMemoryApiKeys,
  createInMemoryPetStore,
} from '../../../../adapters/in-memory/index.js'
import { createKoaApp } from '../../../../adapters/koa/index.js'
import { silentLogger } from '../../../../core/index.js'
import { TEST_KEY, testApiOptions } from '../../../support/app.js'

/**
 * Traces (OpenTelemetry's Koa instrumentation names a span after the middleware function) and
 * stack traces show each middleware by its function's name: none may be anonymous.
 */
describe("the app's middleware", () => {
  it('each have a name that says what they do, every optional one included', () => {
    const app = createKoaApp(
      {
        store: createInMemoryPetStore(),
        apiKeys: createInMemoryApiKeys([TEST_KEY]),
        logger: silentLogger,
        now: Date.now,
        checkReadiness: () => TE.right(undefined),
        observeRequest: () => {},
      },
      { ...testApiOptions(), corsOrigins: ['https://app.example'] },
    )
    expect(app.middleware.map((middleware) => middleware.name)).to.deep.equal([
      'observeRequest',
      'tagLogAndCatch',
      'cors',
      'answerProbes',
      'serveDocsPage',
      'guardApi',
      'routeRequest',
      'answerUnrouted',
    ])
  })
})
