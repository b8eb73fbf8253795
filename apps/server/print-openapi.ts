/** Prints the OpenAPI document the service serves, as configured by the environment. */
import * as E from 'fp-ts/lib/Either.js'
import { openApiJson } from '../../adapters/koa/index.js'
import { apiOptionsOf } from './api-options.js'
import { loadConfig } from './config.js'

const loaded = loadConfig(process.env)
if (E.isLeft(loaded)) throw new Error(loaded.left.join('\n'))
const options = apiOptionsOf(loaded.right)
process.stdout.write(`${openApiJson({ ...options, servers: options.openApiServers ?? [] })}\n`)
