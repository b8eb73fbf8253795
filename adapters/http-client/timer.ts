/** The longest delay setTimeout holds: past it (a signed 32-bit count of ms) it fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Calls `fire` after `ms`, and returns what cancels it. A wait past MAX_TIMER_MS is taken in
 * steps of at most that, so it never ends early; an infinite one sets no timer at all.
 */
export const after = (ms: number, fire: () => void): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const wait = (left: number) => {
    timer =
      left > MAX_TIMER_MS
        ? setTimeout(() => wait(left - MAX_TIMER_MS), MAX_TIMER_MS)
        : setTimeout(fire, left)
  }
  if (ms !== Infinity) wait(ms)
  return () => clearTimeout(timer)
}
