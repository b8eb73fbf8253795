// @ts-check
import { readFileSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import tseslint from 'typescript-eslint'

const root = dirname(new URL(import.meta.url).pathname)
/** The package's own name: `import 'animal-store/…'` reaches any part of it, like a path. */
const packageName = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).name

/** The folders of `path` below the project's root: `['adapters', 'koa', …]`. */
const foldersOf = (path) => relative(root, path).split(sep)

/**
 * Each way a module can name another: import, dynamic import, re-export (`export … from`),
 * `require` through `import =`, and `import('…')` in a type.
 * `check(node, source)` gets the specifier, or undefined when it is not a plain string.
 */
const everyImport = (check) => {
  const visit = (node) => {
    if (node.source === null || node.source === undefined) return // an export without `from`
    const value = node.source.type === 'Literal' ? node.source.value : undefined
    check(node, typeof value === 'string' ? value : undefined)
  }
  const literal = (node) =>
    node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined
  return {
    ImportDeclaration: visit,
    ImportExpression: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    // `import x = require('…')` and a type's `import('…')`
    TSExternalModuleReference: (node) => check(node, literal(node.expression)),
    TSImportType: (node) => check(node, literal(node.argument?.literal)),
  }
}

/** The file a relative or absolute specifier names, else undefined (a package). */
const fileOf = (filename, source) =>
  source.startsWith('.') || source.startsWith('/') ? resolve(dirname(filename), source) : undefined

const isOwnPackage = (source) => source === packageName || source.startsWith(`${packageName}/`)

/**
 * core/ imports fp-ts, io-ts, lossless-json and files of core/, by a specifier the rule can read.
 * lossless-json is pure and has no dependencies: the exact JSON reader lives in core so that the
 * service and the client read ids the same way.
 */
const coreIsolation = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const message = 'core/ imports only fp-ts, io-ts, lossless-json and itself.'
    return everyImport((node, source) => {
      const file = source === undefined ? undefined : fileOf(context.filename, source)
      const allowed =
        source !== undefined &&
        (file === undefined
          ? /^(fp-ts|io-ts|lossless-json)(\/|$)/.test(source)
          : foldersOf(file)[0] === 'core')
      if (!allowed) context.report({ node, message })
    })
  },
}

/**
 * An adapter imports core, never another adapter nor apps. The rule resolves each path and
 * compares folders, so it names no adapter: a new one is covered as it is added.
 */
const adapterIsolation = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const [, own] = foldersOf(context.filename)
    const message = 'An adapter imports core, never another adapter or apps.'
    return everyImport((node, source) => {
      if (source === undefined) return
      if (isOwnPackage(source)) return context.report({ node, message })
      const file = fileOf(context.filename, source)
      if (file === undefined) return
      const [top, name] = foldersOf(file)
      if ((top === 'adapters' && name !== own) || top === 'apps') context.report({ node, message })
    })
  },
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'api-reference/**',
      'test/ferretdb/**',
      'bench/results/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
    },
  },
  {
    files: ['core/**/*.ts'],
    plugins: { core: { rules: { isolation: coreIsolation } } },
    rules: {
      'core/isolation': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process']",
          message: 'core/ must not read process.',
        },
      ],
    },
  },
  {
    files: ['adapters/**/*.ts'],
    plugins: { adapters: { rules: { isolation: adapterIsolation } } },
    rules: { 'adapters/isolation': 'error' },
  },
  {
    // The Koa app writes its answers one way, through adapters/koa/response/answer/, which the
    // server that drives it as its root uses too: a header or status set around it is refused.
    files: ['adapters/koa/app/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^(set|remove|append)$/][callee.object.name='ctx']",
          message: 'Set headers with setHeader or setHeaders of response/answer/.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^(setHeader|removeHeader|writeHead)$/]',
          message: 'Set headers with setHeader or setHeaders of response/answer/.',
        },
        {
          selector:
            "AssignmentExpression > MemberExpression.left[object.name='ctx'][property.name=/^(status|body|type|length|message)$/]",
          message:
            'Write the answer through response/answer/: setAnswer, setJsonAnswer, setEmptyAnswer, or a Responder.',
        },
      ],
    },
  },
)
