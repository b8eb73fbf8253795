import type { IncomingMessage } from 'node:http'

/** The marker on an answer replayed from an earlier request with the same key (Stripe's name). */
export const REPLAYED_HEADER = 'Idempotent-Replayed'

/**
 * The Idempotency-Key header as sent: undefined when absent, the value when sent once, and every
 * value when repeated, so that the core refuses it (Node would join them with ", " otherwise,
 * which can look like one quoted key).
 */
export const idempotencyKeyOf = (req: IncomingMessage): unknown => {
  // `headers` is built already (Koa reads it); `headersDistinct` is built on first use, for every
  // header, so a request without the key never pays for it.
  if (req.headers['idempotency-key'] === undefined) return undefined
  const values = req.headersDistinct['idempotency-key']
  if (values === undefined) return undefined
  return values.length === 1 ? values[0] : values
}
