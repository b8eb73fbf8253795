import type { Logger } from '../../adapters/koa/index.js'
import type { Storage } from './compose.js'

/** Placeholder until the MongoDB adapter lands: refuse to start rather than pretend. */
export const mongoStorage = async (_uri: string, _logger: Logger): Promise<Storage> => {
  throw new Error('MONGODB_URI is not supported yet')
}
