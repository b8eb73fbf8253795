/**
 * How many bytes of an answer's body the client reads at most, by default: about three times the
 * largest answer the service sends, a page of the most pets of the longest JSON
 * (test/adapters/http-client/answer-size.test.ts holds it to that).
 */
export const DEFAULT_MAX_ANSWER_BYTES = 262_144

/**
 * The body as text, or undefined when it is larger than `maxBytes`. It is read a chunk at a time
 * and cancelled once past the bound (or at once when its Content-Length says so), so an endless
 * body costs at most the bound.
 */
export const readBounded = async (
  response: Response,
  maxBytes: number,
): Promise<string | undefined> => {
  const body = response.body
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await body?.cancel()
    return undefined
  }
  if (body === null) return ''
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      return undefined
    }
    text += decoder.decode(value, { stream: true })
  }
}
