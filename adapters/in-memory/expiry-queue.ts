/** An entry of the queue: the record stored under `id` by operation `op` expires at `at`. */
export type Expiry = { readonly at: number; readonly id: string; readonly op: string }

/**
 * A binary min-heap of expiries, earliest first: the purge looks only at what has expired, so
 * its cost is that of the expired entries, whatever else is held.
 */
export const createExpiryQueue = () => {
  const heap: Expiry[] = []
  const before = (i: number, j: number) => heap[i]!.at < heap[j]!.at
  const swap = (i: number, j: number) => {
    const t = heap[i]!
    heap[i] = heap[j]!
    heap[j] = t
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
  return {
    push: (entry: Expiry) => {
      heap.push(entry)
      up(heap.length - 1)
    },
    /** The earliest entry if it expired at `now`, taken out of the queue; else undefined. */
    takeExpired: (now: number): Expiry | undefined => {
      const first = heap[0]
      if (first === undefined || first.at > now) return undefined
      const last = heap.pop()!
      if (heap.length > 0) {
        heap[0] = last
        down(0)
      }
      return first
    },
    hasExpired: (now: number): boolean => heap[0] !== undefined && heap[0].at <= now,
    size: () => heap.length,
  }
}
