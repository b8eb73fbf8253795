/**
 * The headers every answer carries, the app's and the refusals written outside it alike: the
 * request's id, never cached, and never sniffed as another media type than the one sent.
 */
export const everyAnswerHeaders = (requestId: string): Readonly<Record<string, string>> => ({
  'X-Request-Id': requestId,
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
})
