const SHARDS = 256

/** FNV-1a of the string's UTF-16 units, to pick a shard. */
const shardOf = (key: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return (h >>> 0) % SHARDS
}

/**
 * A Map split into 256 smaller ones. A Map rebuilds its table whole when it grows or shrinks
 * past a power of two; at a million entries that one insert or delete holds the event loop for
 * tens of milliseconds, where a shard's rebuild is 256 times smaller.
 */
export const createShardedMap = <V>() => {
  const shards = Array.from({ length: SHARDS }, () => new Map<string, V>())
  const shard = (key: string) => shards[shardOf(key)]!
  return {
    get: (key: string): V | undefined => shard(key).get(key),
    set: (key: string, value: V): void => void shard(key).set(key, value),
    delete: (key: string): boolean => shard(key).delete(key),
  }
}
