import type { IdGenerator } from '@opentelemetry/sdk-trace'

/** A byte as two lowercase hex digits. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

const hexOf = (word: number): string =>
  HEX[word >>> 24]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!

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
 * never all zero), written as hex from a table: the SDK's way goes through a Buffer's `toString`,
 * and was the largest part of what tracing costs a request that is not sampled. A new trace also
 * gives the fold of its words, so a ratio sampler needs no second pass over the hex.
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
    return { traceId: hexOf(a) + hexOf(b) + hexOf(c) + hexOf(d), fold: (a ^ b ^ c ^ d) >>> 0 }
  }

  generateTraceId(): string {
    return this.newTrace().traceId
  }

  generateSpanId(): string {
    const high = this.word()
    const low = this.word()
    return hexOf(high) + hexOf(high === 0 ? low || 1 : low)
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
