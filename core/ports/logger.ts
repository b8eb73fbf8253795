/**
 * The logging port: the slice of a pino-compatible logger that adapters and apps use. A port of
 * its own, so that apps and adapters share it without importing one another.
 */
export type Logger = {
  /** A line at info level: `fields` as structured data, then the message. */
  info: (fields: object, message: string) => void
  /** A line at error level. */
  error: (fields: object, message: string) => void
  /** A line at warn level. */
  warn: (fields: object, message: string) => void
  /** pino's: lets a line be skipped whole when its level is off. */
  isLevelEnabled?: (level: string) => boolean
}

/** A logger that drops every line: for tests and embedders who log elsewhere. */
export const silentLogger: Logger = { info: () => {}, error: () => {}, warn: () => {} }
