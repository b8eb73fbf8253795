/*
 * lossless-json refuses a repeated key only when the two values differ, and JSON.parse keeps the
 * last one silently. The README says any duplicate key is 400, so this scan finds them itself.
 * It runs on text that already parsed, so it only needs to follow strings and nesting.
 */

type Frame = { readonly keys: Set<string> | undefined; expectKey: boolean }

/** The end index (exclusive) of the string literal starting at `start` (a `"`). */
const stringEnd = (text: string, start: number): number => {
  let i = start + 1
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1
  return i + 1
}

/** The first key that occurs twice in one object of a valid JSON text, if any. */
export const firstDuplicateKey = (text: string): string | undefined => {
  const stack: Frame[] = []
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    const top = stack.at(-1)
    if (ch === '"') {
      const end = stringEnd(text, i)
      if (top?.keys !== undefined && top.expectKey) {
        const literal = text.slice(i, end)
        // Without a backslash a key is its characters as written; only escapes need decoding.
        const key = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1)
        if (top.keys.has(key)) return key
        top.keys.add(key)
        top.expectKey = false
      }
      i = end - 1
    } else if (ch === '{') stack.push({ keys: new Set(), expectKey: true })
    else if (ch === '[') stack.push({ keys: undefined, expectKey: false })
    else if (ch === '}' || ch === ']') stack.pop()
    else if (ch === ',' && top?.keys !== undefined) top.expectKey = true
  }
  return undefined
}
