const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const MONTH = `(${MONTHS.join('|')})`
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)'
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})'

/** The three forms of an HTTP-date (RFC 9110 §5.6.7), each giving day, month, year and time. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`)
const RFC850_DATE = new RegExp(
  `^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
)
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`)

/** A two-digit year more than 50 years ahead is the latest past year ending so (§5.6.7). */
const fullYear = (yy: number, now: number): number => {
  const thisYear = new Date(now).getUTCFullYear()
  const year = thisYear - (thisYear % 100) + yy
  return year > thisYear + 50 ? year - 100 : year
}

/** The ms since the epoch of a UTC date and time, or NaN when there is no such moment. */
const utc = (year: number, month: string, day: number, h: number, m: number, s: number) => {
  const monthIndex = MONTHS.indexOf(month)
  const at = Date.UTC(year, monthIndex, day, h, m, s)
  const valid = new Date(at).getUTCDate() === day && h < 24 && m < 60 && s < 61
  return valid ? at : NaN
}

/** An HTTP-date in any of its three forms, in ms since the epoch; NaN for anything else. */
export const parseHttpDate = (text: string, now: number): number => {
  const n = (s: string | undefined) => Number(s)
  let d = IMF_FIXDATE.exec(text)
  if (d) return utc(n(d[3]), d[2] as string, n(d[1]), n(d[4]), n(d[5]), n(d[6]))
  d = RFC850_DATE.exec(text)
  if (d) return utc(fullYear(n(d[3]), now), d[2] as string, n(d[1]), n(d[4]), n(d[5]), n(d[6]))
  d = ASCTIME_DATE.exec(text)
  if (d) return utc(n(d[6]), d[1] as string, n(d[2]), n(d[3]), n(d[4]), n(d[5]))
  return NaN
}

/**
 * Retry-After in seconds: delta-seconds (digits only) or an HTTP-date (RFC 9110 §10.2.3).
 * Anything else counts as absent, so a malformed value never means "retry now".
 */
export const retryAfterSeconds = (header: string | null, now = Date.now()): number | undefined => {
  if (header === null) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value)
  const at = parseHttpDate(value, now)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}
