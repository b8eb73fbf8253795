/** Prints the OpenAPI document the service serves, as configured by the environment. */
import * as E from 'fp-ts/lib/Either.js'
import { openApiTextOf } from './openapi-text.js'

const text = openApiTextOf(process.env)
if (E.isLeft(text)) throw new Error(text.left.join('\n'))
process.stdout.write(`${text.right}\n`)
