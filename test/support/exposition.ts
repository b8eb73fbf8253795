/** The value of one sample line of a Prometheus exposition, or undefined when it is absent. */
export const sample = (text: string, line: string): number | undefined => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `))
  return found === undefined ? undefined : Number(found.slice(line.length + 1))
}
