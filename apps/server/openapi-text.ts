import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import { openApiJson } from '../../adapters/koa/index.js'
import { serversOf } from '../../adapters/koa/app/openapi/document.js'
import { apiOptionsOf } from './api-options.js'
import { loadConfig, type Env } from './config.js'

/**
 * The OpenAPI document the service serves when configured by `env`, as reached at its base path:
 * print-openapi.ts prints it, and docs/openapi.json is it with the default configuration.
 */
export const openApiTextOf = (env: Env): E.Either<ReadonlyArray<string>, string> =>
  pipe(
    loadConfig(env),
    E.map(apiOptionsOf),
    E.map((options) =>
      openApiJson({ ...options, servers: serversOf(options.basePath, options.openApiServers) }),
    ),
  )
