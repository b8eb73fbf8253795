/** Prints the OpenAPI document the service serves, as configured by the environment. */
import * as E from 'fp-ts/lib/Either.js'
import { openApiJson } from '../../adapters/koa/index.js'
import { MAX_BODY_BYTES } from './compose.js'
import { loadConfig } from './config.js'

const loaded = loadConfig(process.env)
if (E.isLeft(loaded)) throw new Error(loaded.left.join('\n'))
const { productionUrl, stagingUrl } = loaded.right
process.stdout.write(
  `${openApiJson({ productionUrl, stagingUrl, maxBodyBytes: MAX_BODY_BYTES })}\n`,
)
