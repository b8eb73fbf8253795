// `redocly lint` with the arguments given, its output and exit status passed through, but for
// the boxed notice Redocly CLI 2 prints on Node 20 ("Node.js 20 support is ending"), which no
// option or variable turns off: the package supports Node 20.19 (engines) and CI runs the suite
// on it, so the notice would be noise in every run. Any other output is kept as it is.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'

const NODE_20_NOTICE = /\n*[ \t]*╔[^╚]*Node\.js 20 support is ending[^╚]*╚[^\n]*\n+/

const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js')
const run = spawnSync(process.execPath, [cli, 'lint', ...process.argv.slice(2)], {
  encoding: 'utf8',
})
if (run.error !== undefined) throw run.error
process.stdout.write(run.stdout)
process.stderr.write(run.stderr.replace(NODE_20_NOTICE, ''))
process.exitCode = run.status ?? 1
