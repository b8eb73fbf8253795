import { hash } from 'node:crypto'

// crypto.hash (Node 20.12+) is one call where createHash().update().digest() is three objects.
/** The SHA-256 of a key, in hex: what is stored and looked up, never the key. */
export const digestOf = (key: string): string => hash('sha256', key, 'hex')
