// @ts-check
/**
 * The layers of the HTTP adapter (docs/contributing.md, "Layout"): each folder imports only the
 * ones below it, so that a reader can take them in order and a change low down is seen by all.
 * `npm run lint:deps` fails on any import that reaches back up; test/apps/layers.test.ts proves
 * that each rule fires. ESLint (eslint.config.js) keeps core/ and the adapters apart.
 */
const koa = '^adapters/koa/'

/** A rule that `from` never imports `to`, with the reason written once. */
const never = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
})

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    never(
      'koa-request-imports-no-other-layer',
      'request/ holds the facts of a request: the bottom layer, which every other one reads.',
      `${koa}request/`,
      `${koa}(response|app|server)/`,
    ),
    never(
      'koa-response-imports-only-request',
      'response/ writes answers for both app/ and server/, so it imports neither.',
      `${koa}response/`,
      `${koa}(app|server)/`,
    ),
    never(
      'koa-app-imports-no-server',
      'app/ is a plain Koa app any host can serve; the server that listens is optional to it.',
      `${koa}app/`,
      `${koa}server/`,
    ),
    never(
      'koa-server-imports-no-app',
      'server/ drives any app through request/ and response/, never through its insides.',
      `${koa}server/`,
      `${koa}app/`,
    ),
    never(
      'koa-routes-import-no-openapi',
      'The OpenAPI document is built from the route table, one way: routes never read it.',
      `${koa}app/routes/`,
      `${koa}app/(openapi|middleware)/`,
    ),
    never(
      'koa-openapi-imports-no-middleware',
      'The document states facts the middleware also uses; they live in response/ or routes/.',
      `${koa}app/openapi/`,
      `${koa}app/middleware/`,
    ),
    {
      name: 'no-circular',
      comment:
        'Two modules that import each other cannot be read, nor changed, one at a time. A cycle ' +
        'closed only by a type import (a lazily loaded module naming the type it returns) runs ' +
        'in one order and is allowed.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are imports too: a type that reaches back up ties the layers as well.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules|test/ferretdb)/' },
  },
}
