/**
 * Measures the turns of the event loop while `work` runs: the longest in wall-clock time, and
 * the most CPU time the process spent in one turn. On a busy host a turn's wall time includes
 * the time the process waited for a core; its CPU time is the work the turn did, which is what
 * the code under test controls, with the collector's threads (a million entries' heap makes
 * those pauses long whatever the code does).
 */
export const longestTurn = async <A>(
  work: () => Promise<A>,
): Promise<{ result: A; wallMs: number; cpuMs: number; turns: number }> => {
  let [wallMs, cpuMs, turns] = [0, 0, 0]
  let ticking = true
  let lastWall = performance.now()
  let lastCpu = process.cpuUsage()
  const tick = () => {
    const cpu = process.cpuUsage(lastCpu)
    const wall = performance.now()
    wallMs = Math.max(wallMs, wall - lastWall)
    cpuMs = Math.max(cpuMs, (cpu.user + cpu.system) / 1000)
    lastWall = wall
    turns++
    lastCpu = process.cpuUsage()
    if (ticking) setImmediate(tick)
  }
  setImmediate(tick)
  const result = await work()
  ticking = false
  return { result, wallMs, cpuMs, turns }
}
