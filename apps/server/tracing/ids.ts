import type { IdGenerator } from '@opentelemetry/sdk-trace'

/** The character codes of the lowercase hex digits. */
const DIGITS = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0))

/** The code of the hex digit of `word`'s four bits from `shift` up. */
const digit = (word: number, shift: number): number => DIGITS[(word >>> shift) & 0xf]!

/*
 * Each id is made as one string, from a character code per digit: joining shorter strings (a
 * table's bytes) makes a string for each join, and every request's ids are made, sampled or not.
 */
// prettier-ignore
const hex64 = (a: number, b: number): string =>
  String.fromCharCode(
    digit(a, 28), digit(a, 24), digit(a, 20), digit(a, 16),
    digit(a, 12), digit(a, 8), digit(a, 4), digit(a, 0),
    digit(b, 28), digit(b, 24), digit(b, 20), digit(b, 16),
    digit(b, 12), digit(b, 8), digit(b, 4), digit(b, 0),
  )

// prettier-ignore
const hex128 = (a: number, b: number, c: number, d: number): string =>
  String.fromCharCode(
    digit(a, 28), digit(a, 24), digit(a, 20), digit(a, 16),
    digit(a, 12), digit(a, 8), digit(a, 4), digit(a, 0),
    digit(b, 28), digit(b, 24), digit(b, 20), digit(b, 16),
    digit(b, 12), digit(b, 8), digit(b, 4), digit(b, 0),
    digit(c, 28), digit(c, 24), digit(c, 20), digit(c, 16),
    digit(c, 12), digit(c, 8), digit(c, 4), digit(c, 0),
    digit(d, 28), digit(d, 24), digit(d, 20), digit(d, 16),
    digit(d, 12), digit(d, 8), digit(d, 4), digit(d, 0),
  )

/** A trace started here: its id, and the fold of its id that a ratio sampler compares. */
export type NewTrace = {
  readonly traceId: string
  /** The XOR of the id's four 32-bit words, unsigned: TraceIdRatioBased's measure of an id. */
  readonly fold: number
}

/** An id generator that also starts traces with their fold. */
export type TraceIdGenerator = IdGenerator & { newTrace(): NewTrace }

/**
 * Trace and span ids as the SDK's RandomIdGenerator makes them (32-bit words from Math.random,
 * never all zero), written as hex a character code per digit: the SDK's way goes through a
 * Buffer's `toString`, and was the largest part of what tracing costs a request that is not
 * sampled. A new trace also gives the fold of its words, so a ratio sampler needs no second pass
 * over the hex.
 */
export class TraceIds implements TraceIdGenerator {
  constructor(private readonly random: () => number = Math.random) {}

  private word(): number {
    return (this.random() * 0x100000000) >>> 0
  }

  newTrace(): NewTrace {
    const a = this.word()
    const b = this.word()
    const c = this.word()
    // As the SDK's: an id of zeros is invalid, so its last byte becomes 1.
    const d = (a | b | c) === 0 ? this.word() || 1 : this.word()
    return { traceId: hex128(a, b, c, d), fold: (a ^ b ^ c ^ d) >>> 0 }
  }

  generateTraceId(): string {
    return this.newTrace().traceId
  }

  generateSpanId(): string {
    const high = this.word()
    const low = this.word()
    return hex64(high, high === 0 ? low || 1 : low)
  }
}

/**
 * The decision of the specification's TraceIdRatioBased sampler (the SDK's: a ratio past 0..1 is
 * cut to it, anything else not a number is 0), made from a new trace's fold: sampled when the
 * fold is under the ratio's share of 2^32 - 1, every trace at 1.
 */
export const sampledAtRatio = (ratio: number): ((fold: number) => boolean) => {
  const share = Number.isNaN(ratio) ? 0 : Math.min(Math.max(ratio, 0), 1)
  const bound = share === 1 ? 0x100000000 : Math.floor(share * 0xffffffff)
  return (fold) => fold < bound
}
