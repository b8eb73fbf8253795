import * as E from 'fp-ts/lib/Either.js'
import { tracingWanted } from './tracing/settings.js'

/*
 * The entry point. Tracing is decided first, and its SDK loaded only when the OTEL_ variables ask
 * for it: the instrumentations must be in place before koa, node:http and mongodb are imported,
 * so the service itself comes in by a dynamic import, after.
 */
const wanted = tracingWanted(process.env)
if (E.isLeft(wanted)) {
  console.error(wanted.left.map((e) => `configuration: ${e}`).join('\n'))
  process.exit(2)
}
const tracing = wanted.right ? await (await import('./tracing/start.js')).startTracing() : undefined
const { serve } = await import('./serve.js')
await serve(process.env, tracing)
