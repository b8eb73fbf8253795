/** What the queue holds: `slot` is the entry's place in the queue, kept by the queue. */
export type Queued = { slot: number }

/**
 * A binary min-heap of entries, earliest expiry first: the purge looks only at what has expired,
 * so its cost is that of the expired entries, whatever else is held. Each entry knows its slot,
 * so one that leaves early (a key forgotten) is removed at once rather than kept until it expires.
 */
export const createExpiryQueue = <E extends Queued>(expiresAt: (entry: E) => number) => {
  const heap: E[] = []
  const place = (entry: E, i: number) => {
    heap[i] = entry
    entry.slot = i
  }
  const before = (i: number, j: number) => expiresAt(heap[i]!) < expiresAt(heap[j]!)
  const swap = (i: number, j: number) => {
    const t = heap[i]!
    place(heap[j]!, i)
    place(t, j)
  }
  const up = (i: number) => {
    for (let parent = (i - 1) >> 1; i > 0 && before(i, parent); i = parent, parent = (i - 1) >> 1)
      swap(i, parent)
  }
  const down = (i: number) => {
    for (;;) {
      const [left, right] = [2 * i + 1, 2 * i + 2]
      let least = i
      if (left < heap.length && before(left, least)) least = left
      if (right < heap.length && before(right, least)) least = right
      if (least === i) return
      swap(i, least)
      i = least
    }
  }
  /** The last entry fills the hole, then moves up or down to where its expiry belongs. */
  const removeAt = (i: number) => {
    const last = heap.pop()!
    if (i === heap.length) return
    place(last, i)
    down(i)
    up(i)
  }
  return {
    push: (entry: E) => {
      place(entry, heap.length)
      up(entry.slot)
    },
    /** Takes `entry` out of the queue; nothing when it is not in it. */
    remove: (entry: E) => {
      if (heap[entry.slot] === entry) removeAt(entry.slot)
    },
    /** The earliest entry if it expired at `now`, taken out of the queue; else undefined. */
    takeExpired: (now: number): E | undefined => {
      const first = heap[0]
      if (first === undefined || expiresAt(first) > now) return undefined
      removeAt(0)
      return first
    },
    hasExpired: (now: number): boolean => heap[0] !== undefined && expiresAt(heap[0]) <= now,
    size: () => heap.length,
  }
}
