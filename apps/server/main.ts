import * as E from 'fp-ts/lib/Either.js'
import { loadConfig } from './config.js'
import { enumsInSpecCase } from './tracing/settings.js'

/*
 * The entry point. Every variable is checked first, tracing's with the others, so that one start
 * reports every problem; the SDK is loaded only when the OTEL_ variables ask for tracing, so that
 * a service without tracing loads nothing of OpenTelemetry.
 */
const loaded = loadConfig(process.env)
if (E.isLeft(loaded)) {
  console.error(loaded.left.map((e) => `configuration: ${e}`).join('\n'))
  process.exit(2)
}
const config = loaded.right
// Names such as OTLP are taken in the case the SDK reads, which reads some from process.env itself.
if (config.tracing) Object.assign(process.env, enumsInSpecCase(process.env))
const tracing = config.tracing
  ? await (await import('./tracing/start.js')).startTracing(process.env)
  : undefined
const { serve } = await import('./serve.js')
await serve(config, tracing)
