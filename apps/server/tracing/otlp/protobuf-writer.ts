/**
 * An append-only protobuf writer over one growable buffer: what the OTLP encoding needs and no
 * more. It writes ASCII and hexadecimal digits itself, as Buffer's methods cost more in their
 * checks than a short string costs to copy.
 */
export class ProtobufWriter {
  private buffer: Buffer
  /** The number of bytes written. */
  pos = 0
  /** Bytes written before and the value they encode, by key, for its writer to copy again. */
  readonly memo = new Map<string, { value: unknown; bytes: Uint8Array }>()

  constructor(capacity = 16 * 1024) {
    this.buffer = Buffer.allocUnsafe(capacity)
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buffer.length) return
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.pos + bytes))
    this.buffer.copy(bigger, 0, 0, this.pos)
    this.buffer = bigger
  }

  /** An unsigned integer below 2^53. */
  varint(value: number): void {
    this.ensure(8)
    this.varintInPlace(value)
  }

  private varintInPlace(value: number): void {
    const b = this.buffer
    let v = value
    while (v > 0x7f) {
      b[this.pos++] = (v % 0x80) | 0x80
      v = Math.floor(v / 0x80)
    }
    b[this.pos++] = v
  }

  /** A 64-bit integer, negative ones as protobuf's int64 writes them (ten bytes, two's complement). */
  varint64(value: bigint): void {
    this.ensure(10)
    let v = BigInt.asUintN(64, value)
    while (v > 0x7fn) {
      this.buffer[this.pos++] = Number(v & 0x7fn) | 0x80
      v >>= 7n
    }
    this.buffer[this.pos++] = Number(v)
  }

  /** A field's key: its number and wire type (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32). */
  tag(field: number, wireType: 0 | 1 | 2 | 5): void {
    this.varint((field << 3) | wireType)
  }

  fixed32(value: number): void {
    this.ensure(4)
    const b = this.buffer
    b[this.pos++] = value & 0xff
    b[this.pos++] = (value >>> 8) & 0xff
    b[this.pos++] = (value >>> 16) & 0xff
    b[this.pos++] = value >>> 24
  }

  /** An unsigned 64-bit integer given as its low and high 32 bits. */
  fixed64(low: number, high: number): void {
    this.fixed32(low)
    this.fixed32(high)
  }

  double(value: number): void {
    this.ensure(8)
    this.buffer.writeDoubleLE(value, this.pos)
    this.pos += 8
  }

  /** A string as UTF-8, length first. */
  string(value: string): void {
    const length = value.length
    if (length < 0x80) {
      // Most strings are short ASCII: one byte of length, a byte a character.
      this.ensure(length + 1)
      const b = this.buffer
      let at = this.pos + 1
      let i = 0
      for (; i < length; i++) {
        const c = value.charCodeAt(i)
        if (c > 0x7f) break
        b[at++] = c
      }
      if (i === length) {
        b[this.pos] = length
        this.pos = at
        return
      }
    }
    const bytes = Buffer.byteLength(value)
    this.varint(bytes)
    this.ensure(bytes)
    this.pos += this.buffer.write(value, this.pos, bytes, 'utf8')
  }

  /** Hexadecimal digits (a trace or span id) as the bytes they spell, length first. */
  hex(value: string): void {
    const length = value.length >>> 1
    this.varint(length)
    this.ensure(length)
    const b = this.buffer
    for (let i = 0; i < value.length; i += 2)
      b[this.pos++] =
        ((HEX_DIGITS[value.charCodeAt(i)] ?? 0) << 4) | (HEX_DIGITS[value.charCodeAt(i + 1)] ?? 0)
  }

  /** Bytes already encoded, as they are. */
  raw(value: Uint8Array): void {
    this.ensure(value.length)
    this.buffer.set(value, this.pos)
    this.pos += value.length
  }

  /**
   * Starts a nested message, leaving `reserve` bytes for its length (two for a message that is
   * usually over 127 bytes); give what it returns to {@link end} once the message is written.
   */
  begin(reserve: 1 | 2 = 1): number {
    this.ensure(reserve)
    const start = this.pos
    this.pos += reserve
    return start * 2 + reserve - 1
  }

  /** Writes the length of the message begun where `begun` says, moving it when the room left differs. */
  end(begun: number): void {
    const start = begun >>> 1
    const reserved = (begun & 1) + 1
    const length = this.pos - start - reserved
    let size = 1
    for (let v = length; v > 0x7f; v >>>= 7) size++
    if (size !== reserved) {
      this.ensure(size - reserved)
      this.buffer.copy(this.buffer, start + size, start + reserved, this.pos)
    }
    this.pos = start
    this.varintInPlace(length)
    this.pos += length
  }

  /** A copy of the bytes written since `from`. */
  copySince(from: number): Uint8Array {
    return new Uint8Array(this.buffer.subarray(from, this.pos))
  }

  /**
   * The bytes written, copied out; the writer starts again empty, keeping its buffer (grown to the
   * size of a batch) and what it remembers.
   */
  take(): Buffer {
    const bytes = Buffer.allocUnsafe(this.pos)
    this.buffer.copy(bytes, 0, 0, this.pos)
    this.pos = 0
    return bytes
  }

  /** The bytes written, not copied: for a writer that writes nothing more. */
  written(): Buffer {
    return this.buffer.subarray(0, this.pos)
  }
}

/** Each hexadecimal digit's value (0-9, a-f, A-F), by its character code: a lookup beats arithmetic. */
const HEX_DIGITS = new Uint8Array(256)
for (let d = 0; d < 16; d++)
  for (const c of new Set([d.toString(16), d.toString(16).toUpperCase()]))
    HEX_DIGITS[c.charCodeAt(0)] = d
