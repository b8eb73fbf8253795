/** The slice of a pino-compatible logger the HTTP adapter uses. */
export type Logger = {
  info: (fields: object, message: string) => void
  error: (fields: object, message: string) => void
  warn: (fields: object, message: string) => void
  /** pino's: lets the per-request line be skipped whole when info is off. */
  isLevelEnabled?: (level: string) => boolean
}

export const silentLogger: Logger = { info: () => {}, error: () => {}, warn: () => {} }
