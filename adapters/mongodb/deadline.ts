/**
 * One time budget for a whole store call, retries included. Every driver call inside takes
 * `maxTimeMS` from what remains, and no new step starts once the budget is spent. A command
 * already sent may still answer for as long again (its outcome is then known: a create that
 * landed answers 201 rather than 503), and the call is raced against that hard bound, so it
 * ends on time even when the database stops answering.
 */
export type Deadline = {
  /** Milliseconds left (at least 1), for maxTimeMS; throws DeadlineExceeded when none are. */
  readonly check: () => number
  /** The error a call that ran out of time ends with. */
  readonly exceeded: () => Error
}

export const DEADLINE_EXCEEDED = 'DeadlineExceeded'
/** The hard bound of a store call, in budgets. */
export const HARD_BOUND_FACTOR = 2

const exceeded = (budgetMs: number): Error =>
  Object.assign(new Error(`the store call did not finish within its ${budgetMs} ms budget`), {
    name: DEADLINE_EXCEEDED,
  })

export const withDeadline = <A>(
  budgetMs: number,
  run: (deadline: Deadline) => Promise<A>,
): Promise<A> => {
  const at = performance.now() + budgetMs
  const deadline: Deadline = {
    check: () => {
      const left = Math.floor(at - performance.now())
      if (left <= 0) throw exceeded(budgetMs)
      return left
    },
    exceeded: () => exceeded(budgetMs),
  }
  let timer: NodeJS.Timeout | undefined
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(exceeded(budgetMs)), budgetMs * HARD_BOUND_FACTOR)
  })
  // The losing side of the race keeps running until its next check(), which then throws.
  return Promise.race([Promise.resolve().then(() => run(deadline)), expiry]).finally(() =>
    clearTimeout(timer),
  )
}
