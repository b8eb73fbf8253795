// The published types of every entry point, as API Extractor reports them: one text per entry
// of package.json's `exports`, read from the built declarations in dist/.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
} from '@microsoft/api-extractor'

type Exports = Record<string, string | { readonly types?: string }>

/** The entry points with types, by report name: `.` is `animal-store`, `./koa` is `koa`. */
export const entryPoints = (root: string): ReadonlyMap<string, string> => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    readonly name: string
    readonly exports: Exports
  }
  const entries = new Map<string, string>()
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string' || target.types === undefined) continue
    const name = subpath === '.' ? manifest.name : subpath.slice('./'.length)
    entries.set(name, join(root, target.types))
  }
  return entries
}

const configFor = (root: string, name: string, entry: string, folder: string) =>
  ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      newlineKind: 'lf',
      mainEntryPointFilePath: entry,
      compiler: { tsconfigFilePath: join(root, 'tsconfig.build.json') },
      apiReport: {
        enabled: true,
        reportFileName: name,
        reportFolder: folder,
        reportTempFolder: folder,
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // The package marks no release stages (@public, @beta): every export is public.
        extractorMessageReporting: {
          'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
        },
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(root, 'package.json'),
  })

/** Builds the report of each entry point of the package at `root` (built: dist/ present). */
export const buildReports = (folder: string): ReadonlyMap<string, string> => {
  const root = resolve(folder)
  const entries = [...entryPoints(root)]
  const scratch = mkdtempSync(join(tmpdir(), 'api-report-'))
  try {
    const configs = entries.map(([name, entry]) => configFor(root, name, entry, scratch))
    const [first] = configs
    if (first === undefined) throw new Error('package.json exports no entry point with types')
    // One program for all entry points: a TypeScript program per entry costs seconds each.
    const compilerState = CompilerState.create(first, {
      additionalEntryPoints: entries.map(([, entry]) => entry),
    })
    const reports = new Map<string, string>()
    for (const [index, config] of configs.entries()) {
      const problems: string[] = []
      Extractor.invoke(config, {
        localBuild: true,
        compilerState,
        messageCallback: (message) => {
          message.handled = true
          if (message.logLevel === ExtractorLogLevel.Error)
            problems.push(message.formatMessageWithLocation(root))
        },
      })
      if (problems.length > 0) throw new Error(problems.join('\n'))
      const name = entries[index]![0]
      reports.set(name, readFileSync(config.reportFilePath, 'utf8'))
    }
    return reports
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
