import { randomUUID } from 'node:crypto'

const SANE = /^[A-Za-z0-9._:-]{1,128}$/

/** A caller's X-Request-Id when it is short and plain (so it is safe to log), else a new one. */
export const requestIdOf = (header: string | string[] | undefined): string =>
  typeof header === 'string' && SANE.test(header) ? header : randomUUID()
