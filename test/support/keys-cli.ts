import { execFile } from 'node:child_process'

export type CliResult = { readonly code: number; readonly stdout: string; readonly stderr: string }

/** Runs `npm run keys --` (apps/keys/main.ts) with the given arguments and environment. */
export const keysCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<CliResult>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/keys/main.ts', ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    )
  })
