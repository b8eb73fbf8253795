import * as E from 'fp-ts/lib/Either.js'

/*
 * Checked with every other variable (config.ts), whether tracing is on or not: a value the service
 * would refuse with tracing on is refused with it off. This file imports no part of OpenTelemetry,
 * so that a service without tracing loads none of it.
 */

type Env = Readonly<Record<string, string | undefined>>

/** OTEL_TRACES_SAMPLER's names, as the specification gives them (pipeline.ts builds each). */
export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const
/**
 * OTEL_PROPAGATORS' names, as the specification gives them (propagators.ts builds each; `none`
 * reads no header). Unset: `tracecontext,baggage`.
 */
export const PROPAGATORS = ['tracecontext', 'baggage', 'b3', 'b3multi', 'jaeger', 'none'] as const
const PROTOCOLS = ['http/protobuf', 'http/json', 'grpc']
const COMPRESSIONS = ['gzip', 'none']
/** The SDK's levels of OTEL_LOG_LEVEL; its diagnostics go to stderr (start.ts). */
const LOG_LEVELS = ['none', 'error', 'warn', 'info', 'debug', 'verbose', 'all']
/**
 * The most any integer variable may be: nine digits. A delay or timeout past 2^31 - 1 ms would
 * fire at once (setTimeout's limit); one bound for all keeps the rule simple.
 */
const INTEGER_MAX = 999_999_999
/** The integer variables (the batch span processor's, the export's timeout), and the least each may be. */
const INTEGER_VARIABLES: ReadonlyArray<readonly [string, number]> = [
  ['OTEL_BSP_SCHEDULE_DELAY', 0],
  ['OTEL_BSP_EXPORT_TIMEOUT', 0],
  ['OTEL_BSP_MAX_QUEUE_SIZE', 1],
  ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 1],
  ['OTEL_EXPORTER_OTLP_TIMEOUT', 1],
  ['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 1],
  ['OTEL_ATTRIBUTE_COUNT_LIMIT', 0],
  ['OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT', 0],
  ['OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT', 0],
  ['OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT', 0],
]
/**
 * NodeSDK's resource detectors, as OTEL_NODE_RESOURCE_DETECTORS names them (pipeline.ts), in the
 * order `all` runs them: the environment's attributes last, so that they win.
 */
export const RESOURCE_DETECTORS = ['host', 'os', 'serviceinstance', 'process', 'env'] as const
const ENDPOINTS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']
/** How much of a request its trace shows (TRACE_DETAIL, seams.ts); each level adds to the one before. */
export const TRACE_DETAILS = ['request', 'operation', 'middleware'] as const
export type TraceDetail = (typeof TRACE_DETAILS)[number]

/** Read by the SDK alone, and documented: any value is a name. */
export const SDK_VARIABLES = ['OTEL_SERVICE_NAME'] as const

/**
 * The OTEL_ variables whose values are names, which the specification asks to read in any case
 * (TRACE_DETAIL is the service's own, and exact like its other variables).
 */
const ENUM_VARIABLES = [
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_COMPRESSION',
  'OTEL_EXPORTER_OTLP_TRACES_COMPRESSION',
  'OTEL_TRACES_SAMPLER',
  'OTEL_PROPAGATORS',
  'OTEL_NODE_RESOURCE_DETECTORS',
  'OTEL_LOG_LEVEL',
  'OTEL_SDK_DISABLED',
]

/** A blank variable is unset, as the SDK reads it; a name is read in lower case. */
const set = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim()
  if (value === undefined || value === '') return undefined
  return ENUM_VARIABLES.includes(name) ? value.toLowerCase() : value
}

/**
 * The names of `env` in the case the specification writes them (`OTLP` as `otlp`): what the
 * pipeline and the SDK itself read once tracing starts, since the SDK reads some of them
 * (compression) from process.env, and only in that case.
 */
export const enumsInSpecCase = (env: Env): Record<string, string> =>
  Object.fromEntries(
    ENUM_VARIABLES.flatMap((name) => {
      const value = set(env, name)
      return value === undefined ? [] : [[name, value]]
    }),
  )

/** The value as it was written, for a refusal to quote. */
const written = (env: Env, name: string): string => env[name]?.trim() ?? ''

const exportersOf = (env: Env): string[] =>
  (set(env, 'OTEL_TRACES_EXPORTER') ?? '').split(',').flatMap((e) => e.trim() || [])

const exporterProblem = (env: Env): string[] => {
  const unknown = exportersOf(env).filter((e) => e !== 'otlp' && e !== 'none')
  return unknown.length === 0
    ? []
    : [`OTEL_TRACES_EXPORTER must be otlp or none (got "${written(env, 'OTEL_TRACES_EXPORTER')}")`]
}

const isWebUrl = (raw: string): boolean =>
  URL.canParse(raw) && /^https?:$/.test(new URL(raw).protocol)

const ratioProblem = (env: Env): string[] => {
  const sampler = set(env, 'OTEL_TRACES_SAMPLER') ?? ''
  const arg = set(env, 'OTEL_TRACES_SAMPLER_ARG')
  if (!sampler.endsWith('traceidratio') || arg === undefined) return []
  const ratio = Number(arg)
  return ratio >= 0 && ratio <= 1
    ? []
    : [`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (got "${arg}")`]
}

/** The longest key or value the SDK's env detector keeps. */
const RESOURCE_TEXT_MAX = 255

/**
 * `key=value,key=value`, as the specification writes resource attributes (values %-encoded). The
 * SDK drops the whole variable, in silence, at one pair it cannot read: an unencoded `=`, a key or
 * value that does not decode, or either longer than 255 characters once decoded.
 */
const resourceProblem = (env: Env): string[] => {
  const value = set(env, 'OTEL_RESOURCE_ATTRIBUTES')
  const readable = (text: string) => {
    try {
      return decodeURIComponent(text).length <= RESOURCE_TEXT_MAX
    } catch {
      return false
    }
  }
  const fine = (pair: string) => {
    const [key, text, ...more] = pair.split('=')
    return (
      more.length === 0 &&
      text !== undefined &&
      key !== undefined &&
      key.trim() !== '' &&
      readable(key.trim()) &&
      readable(text.trim())
    )
  }
  return value === undefined || value.split(',').every(fine)
    ? []
    : [
        `OTEL_RESOURCE_ATTRIBUTES must be key=value pairs separated by commas, = and , percent-encoded, each key and value at most ${RESOURCE_TEXT_MAX} characters (got "${value}")`,
      ]
}

/** A list of names from `known`, separated by commas. */
const namesProblem = (env: Env, name: string, known: ReadonlyArray<string>): string[] => {
  const value = set(env, name)
  return value === undefined || value.split(',').every((one) => known.includes(one.trim()))
    ? []
    : [
        `${name} must be names from ${known.join(', ')}, separated by commas (got "${written(env, name)}")`,
      ]
}

/** What is wrong with the variables that shape the traces, whether tracing is on or not. */
const problemsOf = (env: Env): string[] => {
  const oneOf = (name: string, values: ReadonlyArray<string>) => {
    const value = set(env, name)
    return value === undefined || values.includes(value)
      ? []
      : [`${name} must be one of ${values.join(', ')} (got "${written(env, name)}")`]
  }
  const integer = ([name, least]: readonly [string, number]) => {
    const value = set(env, name)
    return value === undefined || (/^[0-9]{1,9}$/.test(value) && +value >= least)
      ? []
      : [`${name} must be an integer from ${least} to ${INTEGER_MAX} (got "${value}")`]
  }
  const url = (name: string) => {
    const value = set(env, name)
    return value === undefined || isWebUrl(value)
      ? []
      : [`${name} must be an http or https URL (got "${value}")`]
  }
  return [
    ...exporterProblem(env),
    ...oneOf('OTEL_EXPORTER_OTLP_PROTOCOL', PROTOCOLS),
    ...oneOf('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', PROTOCOLS),
    ...oneOf('OTEL_EXPORTER_OTLP_COMPRESSION', COMPRESSIONS),
    ...oneOf('OTEL_EXPORTER_OTLP_TRACES_COMPRESSION', COMPRESSIONS),
    ...oneOf('OTEL_TRACES_SAMPLER', SAMPLERS),
    ...ratioProblem(env),
    ...INTEGER_VARIABLES.flatMap(integer),
    ...ENDPOINTS.flatMap(url),
    ...resourceProblem(env),
    ...namesProblem(env, 'OTEL_NODE_RESOURCE_DETECTORS', [...RESOURCE_DETECTORS, 'all', 'none']),
    ...namesProblem(env, 'OTEL_PROPAGATORS', PROPAGATORS),
    ...oneOf('OTEL_LOG_LEVEL', LOG_LEVELS),
    ...oneOf('OTEL_SDK_DISABLED', ['true', 'false']),
    ...oneOf('TRACE_DETAIL', TRACE_DETAILS),
  ]
}

/**
 * Whether the standard OpenTelemetry variables ask for traces: `OTEL_TRACES_EXPORTER=otlp`, or an
 * OTLP endpoint with no exporter named (otlp is the specification's default). Off when
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. Left: every problem found, on or off.
 */
export const tracingWanted = (env: Env): E.Either<string[], boolean> => {
  const problems = problemsOf(env)
  if (problems.length > 0) return E.left(problems)
  if (set(env, 'OTEL_SDK_DISABLED') === 'true') return E.right(false)
  const exporters = exportersOf(env)
  return E.right(
    exporters.includes('otlp') ||
      (exporters.length === 0 && ENDPOINTS.some((name) => set(env, name) !== undefined)),
  )
}
