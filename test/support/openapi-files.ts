import * as E from 'fp-ts/lib/Either.js'
import { isInteger, parse } from 'lossless-json'
import { format, resolveConfig } from 'prettier'
import { stringify } from 'yaml'
import { openApiTextOf } from '../../apps/server/openapi-text.js'

/*
 * The committed OpenAPI document, for generating clients without starting the service: what the
 * service serves with the default configuration, as JSON and as YAML, formatted by Prettier as
 * every other file. `npm run openapi:write` writes them; test/docs/openapi-files.test.ts checks
 * that they are what the code builds.
 */

export const OPENAPI_FILES = { json: 'docs/openapi.json', yaml: 'docs/openapi.yaml' } as const

/** The document of the default configuration, as the service serves it. */
export const defaultOpenApiText = (): string => {
  const text = openApiTextOf({})
  if (E.isLeft(text)) throw new Error(text.left.join('\n'))
  return text.right
}

/** Integers as bigints, so that 9223372036854775807 is written digit for digit. */
export const parseExact = (text: string): unknown =>
  parse(text, null, (n) => (isInteger(n) ? BigInt(n) : Number(n)))

const formatted = async (text: string, path: string) =>
  format(text, { ...(await resolveConfig(path)), filepath: path })

/** The text of each committed file, by its path. */
export const openApiFileTexts = async (): Promise<Record<string, string>> => {
  const json = defaultOpenApiText()
  const yaml = stringify(parseExact(json), { lineWidth: 0 })
  return {
    [OPENAPI_FILES.json]: await formatted(json, OPENAPI_FILES.json),
    [OPENAPI_FILES.yaml]: await formatted(yaml, OPENAPI_FILES.yaml),
  }
}
