import type { IncomingMessage } from 'node:http'

/**
 * Whether the request is HTTP/1.1 or 1.0, the versions served: Node's parser refuses most others
 * but lets 0.9 and 2.0 through, to be answered as if they were 1.0.
 */
export const isServedVersion = (req: IncomingMessage): boolean =>
  req.httpVersionMajor === 1 && req.httpVersionMinor <= 1

/** One wording for a request line's refusal and a CONNECT's. */
export const VERSION_REFUSAL = 'the request must be HTTP/1.1 or HTTP/1.0'
