import * as E from 'fp-ts/lib/Either.js'
import { tracingWanted } from './tracing/settings.js'

/*
 * The entry point. Tracing is decided first, and its SDK loaded only when the OTEL_ variables ask
 * for it, so that a service without tracing loads nothing of OpenTelemetry.
 */
const wanted = tracingWanted(process.env)
if (E.isLeft(wanted)) {
  console.error(wanted.left.map((e) => `configuration: ${e}`).join('\n'))
  process.exit(2)
}
const tracing = wanted.right
  ? await (await import('./tracing/start.js')).startTracing(process.env)
  : undefined
const { serve } = await import('./serve.js')
await serve(process.env, tracing)
