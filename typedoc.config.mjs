// @ts-check
// The API reference (npm run docs:api). Its entry points are the package's: every subpath of
// the exports map, from the source its types are built from, so an entry point added there is
// documented (and checked) with no change here.
import { readFileSync } from 'node:fs'

const { exports } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8'))

/** `./dist/adapters/koa/index.d.ts` -> `./adapters/koa/index.ts` */
const sourceOf = (/** @type {string} */ types) =>
  types.replace(/^\.\/dist\//, './').replace(/\.d\.ts$/, '.ts')

const entryPoints = Object.entries(exports).flatMap(([subpath, target]) => {
  if (typeof target === 'string') return [] // ./package.json
  const source = sourceOf(target.types)
  // The page is named by the import specifier readers write, which the file's header gives.
  const specifier = subpath === '.' ? 'animal-store' : `animal-store/${subpath.slice(2)}`
  if (!readFileSync(source, 'utf8').includes(`@module ${specifier}\n`))
    throw new Error(`${source} must name its module in its header comment: @module ${specifier}`)
  return [source]
})

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  entryPoints,
  tsconfig: './tsconfig.build.json',
  out: './api-reference',
  name: 'Animal Store',
  // The landing page: what each entry point is for, and where to start.
  readme: './typedoc/landing.md',
  // What a reader looks for first (what to call), then the values, then the types.
  groupOrder: ['Functions', 'Variables', 'Classes', 'Type Aliases', 'Interfaces', '*'],
  sort: ['kind', 'alphabetical-ignoring-documents'],
  // Each export's first paragraph beside its name in the entry point's listing.
  useFirstParagraphOfCommentAsSummary: true,
  excludePrivate: true,
  excludeInternal: true,
  treatWarningsAsErrors: true,
  // No links to a hosted source: the package names no repository, and a clone's remote may be
  // a local path, which TypeDoc warns of (a warning fails this build).
  disableSources: true,
  // Every export needs a comment; the fields of an exported type only where they need saying.
  requiredToBeDocumented: [
    'Module',
    'Namespace',
    'Enum',
    'Variable',
    'Function',
    'Class',
    'Interface',
    'TypeAlias',
  ],
  // The mapped type behind the JSON writer's unchecked fields: the fields are shown where they
  // are used. ERROR_ANSWERS: the table behind ErrorAnswerName, whose names the reference lists.
  // Settled and Tasked turn each of the client's Calls into its promise and its TaskEither form;
  // Calls documents each call, and EveryOperation only checks that it has one for each operation.
  intentionallyNotExported: ['Plain', 'ERROR_ANSWERS', 'Settled', 'Tasked', 'EveryOperation'],
  validation: { notExported: true, notDocumented: true, invalidLink: true, rewrittenLink: true },
}
