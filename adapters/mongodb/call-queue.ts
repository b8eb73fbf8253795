import type { Deadline } from './deadline.js'

type Waiter = { readonly admit: () => void }

export type CallQueue = {
  /** Runs `step` once one of the `limit` places is free; gives up, having sent nothing, at the deadline. */
  readonly through: <A>(deadline: Deadline, step: () => Promise<A>) => Promise<A>
}

/**
 * At most `limit` store calls at the database at once per instance, the rest waiting here in
 * arrival order. The driver's pool would queue them too, but an operation queued there is
 * sent even after its caller gave up, so a create answered 503 could still be stored. Here a
 * call that runs out of time while it waits leaves without having sent anything.
 */
export const createCallQueue = (limit: number): CallQueue => {
  let inside = 0
  const queue: Waiter[] = []

  const leave = () => {
    const waiter = queue.shift()
    if (waiter === undefined) inside--
    else waiter.admit()
  }

  const enter = (deadline: Deadline): Promise<void> => {
    if (inside < limit) {
      inside++
      return Promise.resolve()
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer)
          resolve()
        },
      }
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1)
        reject(deadline.exceeded())
      }, deadline.check())
      queue.push(waiter)
    })
  }

  return {
    through: async (deadline, step) => {
      await enter(deadline)
      try {
        deadline.check()
        return await step()
      } finally {
        leave()
      }
    },
  }
}
