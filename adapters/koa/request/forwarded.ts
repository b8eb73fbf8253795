/** Every value of a header, joined as one list (Node joins repeated headers with commas). */
const valuesOf = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? value.join(',') : (value ?? '')

/**
 * The `for=` of each element of RFC 7239's `Forwarded`, in order, unquoted (`"[2001:db8::1]:80"`
 * stays bracketed, with its port); an element without one is ''.
 */
export const forwardedFor = (header: string | string[] | undefined): string[] => {
  const value = valuesOf(header)
  if (value === '') return []
  return value.split(',').map((element) => {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=')
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for')
        return pair
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1')
    }
    return ''
  })
}
