import { OPERATIONS, type HttpMethod } from '../../core/index.js'

/**
 * What the route table says about paths and methods, for tests that check the app follows it:
 * derived here, so a new operation changes what they expect rather than breaking them.
 */

const operations = Object.values(OPERATIONS)

/** Every path template of the table, once (`/pets/{petId}`). */
export const PATH_TEMPLATES: ReadonlyArray<string> = [...new Set(operations.map((op) => op.path))]

/** A path of this template under the base path, each parameter `1`: `/v1/pets/1`. */
export const pathOf = (template: string, basePath = '/v1'): string =>
  basePath + template.replace(/\{\w+\}/g, '1')

/** The methods a path template accepts, as `Allow` lists them: sorted, HEAD beside GET. */
export const allowOf = (template: string): string => {
  const methods = operations.filter((op) => op.path === template).map((op) => op.method)
  return [...new Set(methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))]
    .sort()
    .join(', ')
}

const METHODS: ReadonlyArray<HttpMethod> = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** A method of the interface that no operation uses: refused 405 on every path, whatever the key. */
export const unusedMethod = (): HttpMethod => {
  const unused = METHODS.find((method) => operations.every((op) => op.method !== method))
  if (unused === undefined) throw new Error('every method of the interface has an operation')
  return unused
}
