/**
 * The logging port: the slice of a pino-compatible logger that adapters and apps use. A port of
 * its own, so that apps and adapters share it without importing one another.
 */
export type Logger = {
  info: (fields: object, message: string) => void
  error: (fields: object, message: string) => void
  warn: (fields: object, message: string) => void
  /** pino's: lets a line be skipped whole when its level is off. */
  isLevelEnabled?: (level: string) => boolean
}

export const silentLogger: Logger = { info: () => {}, error: () => {}, warn: () => {} }
