/**
 * The app as an embedder without swagger-ui-dist has it: the package cannot be resolved (every
 * resolution of it fails as a missing module would). Prints what three paths answer, as JSON.
 */
import Module from 'node:module'

type Resolve = (request: string, ...rest: unknown[]) => string
const modules = Module as unknown as { _resolveFilename: Resolve }
const resolve = modules._resolveFilename
modules._resolveFilename = function (this: unknown, request, ...rest) {
  if (request === 'swagger-ui-dist' || request.startsWith('swagger-ui-dist/'))
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' })
  return resolve.call(this, request, ...rest)
}

const { startTestApi } = await import('../../support/app.js')
const api = await startTestApi()
const answers = []
for (const path of ['/v1/docs', '/v1/docs/init.js', '/v1/openapi.json']) {
  const { status, text } = await api.request({ path })
  answers.push({ path, status, body: status === 200 ? '' : text })
}
await api.close()
console.log(JSON.stringify(answers))
