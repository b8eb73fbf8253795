/**
 * A fresh Idempotency-Key: a random UUID from the platform's Web Crypto (Node 20+, browsers).
 * randomUUID exists only in secure contexts (https, or loopback) in browsers; getRandomValues
 * everywhere, so a UUID is made from it otherwise.
 */
export const newIdempotencyKey = (): string => {
  const crypto = globalThis.crypto
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40 // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80 // RFC 9562 variant
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
