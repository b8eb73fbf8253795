/** `2026-01-01T00:00:00Z`, seconds and fraction optional, `Z` or an offset required. */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/

/**
 * An ISO 8601 instant as written, or undefined. Not `new Date(raw)`: that reads any format V8
 * knows (`1`, `December 17, 1995`), a time without a zone in local time, and moves an
 * impossible date on (30 February becomes 2 March) instead of refusing it.
 */
export const parseIsoInstant = (raw: string): Date | undefined => {
  const m = ISO_INSTANT.exec(raw)
  if (m === null) return undefined
  // Every group but the seconds is there once the pattern matched; absent seconds are 0.
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((digits) => Number(digits ?? 0))
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3))
  const [offsetHours, offsetMins] = [Number(m[10] ?? 0), Number(m[11] ?? 0)]
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMins > 59)
    return undefined
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis))
  // Date.UTC carries an out-of-range day or month over; a real date comes back unchanged.
  const real =
    local.getUTCFullYear() === year &&
    local.getUTCMonth() === month - 1 &&
    local.getUTCDate() === day
  if (!real) return undefined
  const offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins)
  return new Date(local.getTime() - offsetMinutes * 60_000)
}
