/** Every value of a header, joined as one list (Node joins repeated headers with commas). */
const valuesOf = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? value.join(',') : (value ?? '')

const isSpace = (c: number): boolean => c === 32 || c === 9

/** Whether `v` from `start` to `end`, spaces around it aside, is `for` in any case. */
const isFor = (v: string, start: number, end: number): boolean => {
  while (start < end && isSpace(v.charCodeAt(start))) start++
  while (end > start && isSpace(v.charCodeAt(end - 1))) end--
  return end - start === 3 && v.slice(start, end).toLowerCase() === 'for'
}

/** The `for=` value of the element of `v` from `start` to `end`, unquoted; '' without one. */
const forOf = (v: string, start: number, end: number): string => {
  let pair = start
  let eq = -1
  for (let i = start; i <= end; i++) {
    const c = i < end ? v.charCodeAt(i) : 59
    if (c === 61 && eq === -1) eq = i
    else if (c === 59) {
      if (eq > pair && isFor(v, pair, eq))
        return v
          .slice(eq + 1, i)
          .trim()
          .replace(/^"(.*)"$/, '$1')
      ;[pair, eq] = [i + 1, -1]
    }
  }
  return ''
}

/**
 * The `for=` of each element of RFC 7239's `Forwarded`, from the last one back, unquoted
 * (`"[2001:db8::1]:80"` stays bracketed, with its port); an element without one is ''. Read as
 * far back as the caller asks: a value of thousands of elements costs only those walked.
 */
export function* forwardedForFromRight(header: string | string[] | undefined): Generator<string> {
  const value = valuesOf(header)
  if (value === '') return
  for (let end = value.length; end >= 0;) {
    const comma = end === 0 ? -1 : value.lastIndexOf(',', end - 1)
    yield forOf(value, comma + 1, end)
    end = comma
  }
}

/**
 * The entries of `X-Forwarded-For` from the last one back, as proxy-addr reads them (spaces
 * around them trimmed, empty ones skipped), read only as far back as the caller asks.
 */
export function* xForwardedForFromRight(header: string | string[] | undefined): Generator<string> {
  const value = valuesOf(header)
  let [start, end] = [value.length, value.length]
  for (let i = value.length - 1; i >= 0; i--) {
    const c = value.charCodeAt(i)
    if (c === 44 && start !== end) yield value.substring(start, end)
    if (c === 44 || (c === 32 && start === end)) start = end = i
    else if (c !== 32) start = i
  }
  if (start !== end) yield value.substring(start, end)
}
