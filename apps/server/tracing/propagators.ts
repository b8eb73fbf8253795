import type { TextMapPropagator } from '@opentelemetry/api'
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core'
import type { PROPAGATORS } from './settings.js'

type Env = Readonly<Record<string, string | undefined>>
type PropagatorName = Exclude<(typeof PROPAGATORS)[number], 'none'>

/** Each name's propagator; B3's and Jaeger's packages are loaded only when named. */
const PROPAGATOR: Readonly<Record<PropagatorName, () => Promise<TextMapPropagator>>> = {
  tracecontext: async () => new W3CTraceContextPropagator(),
  baggage: async () => new W3CBaggagePropagator(),
  b3: async () => new (await import('@opentelemetry/propagator-b3')).B3Propagator(),
  b3multi: async () => {
    const { B3InjectEncoding, B3Propagator } = await import('@opentelemetry/propagator-b3')
    return new B3Propagator({ injectEncoding: B3InjectEncoding.MULTI_HEADER })
  },
  jaeger: async () => new (await import('@opentelemetry/propagator-jaeger')).JaegerPropagator(),
}

/**
 * The propagator OTEL_PROPAGATORS names, as the SDK for Node chooses it: `tracecontext,baggage`
 * when unset; undefined (no header is read) when `none` is among the names. A name given twice
 * counts once. settings.ts has refused unknown names.
 */
export const propagatorOf = async (env: Env): Promise<TextMapPropagator | undefined> => {
  const names = [
    ...new Set((env.OTEL_PROPAGATORS ?? '').split(',').flatMap((name) => name.trim() || [])),
  ]
  if (names.includes('none')) return undefined
  const named = (names.length === 0 ? ['tracecontext', 'baggage'] : names) as PropagatorName[]
  const propagators = await Promise.all(named.map((name) => PROPAGATOR[name]()))
  return propagators.length === 1 ? propagators[0] : new CompositePropagator({ propagators })
}
