// @ts-check
import tseslint from 'typescript-eslint'

/** Import rules that keep the hexagon's dependencies pointing inwards. */
const only = (allowed, message) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [{ regex: `^(?!(${allowed.join('|')})(/|$))`, message }] },
  ],
})

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
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(apps)(/|$)|\\.\\./(in-memory|koa|mongodb|testing)/',
              message: 'An adapter imports core, never another adapter or apps.',
            },
          ],
        },
      ],
    },
  },
)
