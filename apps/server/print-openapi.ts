/** Prints the OpenAPI document the service serves, as configured by the environment. */
import { openApiJson } from '../../adapters/koa/index.js'
import { MAX_BODY_BYTES } from './compose.js'
import { loadConfig } from './config.js'

const loaded = loadConfig(process.env)
if ('errors' in loaded) throw new Error(loaded.errors.join('\n'))
const { productionUrl, stagingUrl } = loaded.config
process.stdout.write(
  `${openApiJson({ productionUrl, stagingUrl, maxBodyBytes: MAX_BODY_BYTES })}\n`,
)
