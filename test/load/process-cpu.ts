import { readFileSync } from 'node:fs'

/**
 * CPU time (user + system, ms) a process has used so far, from /proc; undefined where there is
 * none (not Linux, or the process is gone). On a shared machine, CPU per request varies far
 * less than requests per second, so the load report gives both.
 */
export const cpuMsOf = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? ticks * 10 : undefined
  } catch {
    return undefined
  }
}

/** The CPU all of `pids` used between two readings, or undefined when one is missing. */
export const cpuBetween = (
  before: ReadonlyArray<number | undefined>,
  after: ReadonlyArray<number | undefined>,
): number | undefined =>
  before.some((ms) => ms === undefined) || after.some((ms) => ms === undefined)
    ? undefined
    : after.reduce<number>((sum, ms, i) => sum + (ms as number) - (before[i] as number), 0)
