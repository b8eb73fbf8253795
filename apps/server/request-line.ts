import { hostname } from 'node:os'
import type { RequestLine, RequestRecord } from '../../adapters/koa/index.js'

export type LineBase = { readonly pid: number; readonly hostname: string }

/**
 * A JSON string literal: a plain printable-ASCII string without quote or backslash (an id, a
 * method, a route, a key label: nearly always) is quoted as it is, the rest goes through
 * JSON.stringify. The scan is cheaper than JSON.stringify's set-up for short strings.
 */
const quoted = (s: string | null): string => {
  if (s === null) return 'null'
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(s)
  }
  return `"${s}"`
}

/**
 * The trace fields, when the record has them, where pino writes them: after the base, first.
 * They are hexadecimal digits (TraceLogFields), which a JSON string holds as they are.
 */
const traceFields = (r: RequestRecord): string =>
  r.trace_id === undefined
    ? ''
    : `"trace_id":"${r.trace_id}","span_id":"${r.span_id}","trace_flags":"${r.trace_flags}",`

/**
 * The request log line as pino writes `logger.info(record, 'request')` (a test holds the two
 * equal), built as one template instead of through pino's generic serializer, which walks the
 * record key by key and allocates as it goes (bench/HISTORY.md).
 * Every string is a JSON string literal; numbers are numbers. With tracing on, the record names the
 * request's trace, and so does the line.
 */
export const pinoRequestLine = (
  write: (line: string) => void,
  base: LineBase = { pid: process.pid, hostname: hostname() },
): RequestLine => {
  const afterTime = `,"pid":${base.pid},"hostname":${JSON.stringify(base.hostname)},`
  return (r) =>
    write(
      `{"level":30,"time":${Date.now()}${afterTime}${traceFields(r)}"requestId":${quoted(r.requestId)},"method":${quoted(r.method)},"route":${quoted(r.route)},"status":${r.status},"ms":${r.ms},"keyId":${quoted(r.keyId)},"client":${quoted(r.client)},"msg":"request"}\n`,
    )
}
