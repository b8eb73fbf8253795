import { randomUUID } from 'node:crypto'

const LOGGABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** A caller's X-Request-Id when it is short and plain (so it is safe to log), else a new one. */
export const requestIdOf = (header: string | string[] | undefined): string =>
  typeof header === 'string' && LOGGABLE_REQUEST_ID.test(header) ? header : randomUUID()
