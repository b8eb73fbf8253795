/**
 * The page's only script of our own, served as `<base path>/docs/init.js` so that the
 * Content-Security-Policy can forbid inline scripts. Plain browser JavaScript (ES2017): it reads
 * the document and the base path from data attributes of the page, and writes the document's first
 * server (the base path) as an absolute URL, so that "Try it out" calls the instance that served
 * the page.
 */
export const DOCS_INIT_SCRIPT = `'use strict'
window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui')
  // The base path as this browser reaches it, without the slash that \`.\` resolves to.
  var api = new URL(root.dataset.basePath, window.location.href).href.replace(/\\/$/, '')
  fetch(root.dataset.openapi, { headers: { Accept: 'application/json' } })
    .then(function (reply) { return reply.json() })
    .then(function (spec) {
      spec.servers = [{ url: api, description: 'This service' }].concat((spec.servers || []).slice(1))
      window.ui = SwaggerUIBundle({
        spec: spec,
        dom_id: '#swagger-ui',
        deepLinking: true,
        presets: [SwaggerUIBundle.presets.apis],
        layout: 'BaseLayout',
        tryItOutEnabled: false,
        persistAuthorization: false,
      })
    })
})
`
