// @ts-check
import { dirname, relative, resolve, sep } from 'node:path'
import tseslint from 'typescript-eslint'

/** Import rules that keep the hexagon's dependencies pointing inwards. */
const only = (allowed, message) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [{ regex: `^(?!(${allowed.join('|')})(/|$))`, message }] },
  ],
})

const root = dirname(new URL(import.meta.url).pathname)

/** `adapters/<name>` of a path inside an adapter, else undefined. */
const adapterOf = (path) => {
  const [top, name] = relative(root, path).split(sep)
  return top === 'adapters' && name !== undefined ? name : undefined
}

/**
 * An adapter imports core, never another adapter nor apps. The rule resolves each relative
 * import and compares folders, so it names no adapter: a new one is covered as it is added.
 */
const adapterIsolation = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const own = adapterOf(context.filename)
    const check = (node) => {
      const source = node.source?.value
      if (own === undefined || typeof source !== 'string' || !source.startsWith('.')) return
      const target = resolve(dirname(context.filename), source)
      const other = adapterOf(target)
      const top = relative(root, target).split(sep)[0]
      if ((other !== undefined && other !== own) || top === 'apps')
        context.report({ node, message: 'An adapter imports core, never another adapter or apps.' })
    }
    return {
      ImportDeclaration: check,
      ImportExpression: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
    }
  },
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'test/ferretdb/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: only(['fp-ts', 'io-ts', '\\.\\.?'], 'core/ imports only fp-ts, io-ts and itself.'),
  },
  {
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^(\\.\\.\\/)+(adapters|apps)\\//]',
          message: 'core/ must not import adapters or apps.',
        },
        {
          selector: "MemberExpression[object.name='process']",
          message: 'core/ must not read process.',
        },
      ],
    },
  },
  {
    files: ['adapters/**/*.ts'],
    plugins: { boundaries: { rules: { 'adapter-isolation': adapterIsolation } } },
    rules: { 'boundaries/adapter-isolation': 'error' },
  },
)
