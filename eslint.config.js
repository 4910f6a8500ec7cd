import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import crkb from './scripts/lintLayers.mjs';

// The layers (README, "Layout") and what each may import; dependencies run one way. A folder below
// a layer belongs to it; a file under src/ or ingest/ outside every layer is an error (crkb/layers).
const LAYERS = {
  'src/core': [],
  'ingest/parse': ['src/core'],
  'src/db': ['src/core'],
  'src/engine': ['src/core', 'src/db'],
  'ingest/store': ['src/core', 'ingest/parse', 'src/db', 'src/engine'],
  'src/query': ['src/core', 'src/db', 'src/engine'],
  'src/http': ['src/core'],
  'src/web': ['src/core', 'src/query', 'src/http'],
  'src/integrations': ['src/core', 'src/query', 'src/http'],
  'src/server': ['src/core', 'src/query', 'src/http', 'src/web', 'src/integrations'],
  'src/cli': ['src/core', 'ingest/parse', 'src/db', 'src/engine', 'ingest/store', 'src/query', 'src/http', 'src/web', 'src/integrations', 'src/server'],
};

/** The files linted with type information. */
const TYPED = ['src/**/*.ts', 'ingest/**/*.ts', 'bench/**/*.ts'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/*.db*', 'coverage/', 'src/server/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Type-aware rules on the code that ships and the benchmarks. Not on the tests: there they find
  // node:test's test() promises (the runner awaits them) and \`any\` from JSON bodies under assert.
  ...tseslint.configs.recommendedTypeChecked.map((c) => ({ ...c, files: TYPED })),
  {
    files: TYPED,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // An async method that does not await is how a method returns the promise an interface asks
      // for (MCP's Transport.start and close) with its throws as rejections; the rule's fix changes that.
      '@typescript-eslint/require-await': 'off',
      // Every throw of ours throws an Error; the rule's one finding was ingest rethrowing what a parse
      // callback caught (unknown, narrowed by `!== null`), which it cannot tell from throwing a string.
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // A user's string used as a plain object's key finds what Object.prototype holds ('__proto__',
    // 'constructor', 'toString'…): lookup tables are Maps. limits.ts keys its tables by schema
    // coordinates of a validated query only.
    files: ['src/**/*.ts', 'ingest/**/*.ts'],
    ignores: ['src/server/limits.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'VariableDeclarator[init.type="ObjectExpression"] TSTypeReference[typeName.name="Record"] > TSTypeParameterInstantiation > TSStringKeyword:first-child',
          message: 'A table keyed by any string is a Map (a plain object answers "__proto__", "constructor", "toString"…).',
        },
        {
          selector: 'BinaryExpression[operator="in"][left.type!="Literal"]',
          message: 'Test a key with Map.has or Object.hasOwn: `in` finds what Object.prototype holds.',
        },
      ],
    },
  },
  { plugins: { crkb }, rules: { 'crkb/layers': ['error', { layers: LAYERS }], 'crkb/no-cycle': 'error' } },
);
