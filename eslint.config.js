import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/*.db*', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // integrations are edges over the query layer: no SQL, engine or other edge (the HTTP cache helpers excepted)
    files: ['src/integrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../../db/*', '../../engine/*', '../../../ingest/**', '../../cli/*', '../../web/**', '../../server/**', '!../../server/ResponseCache.js'], message: 'integrations import only src/query, src/core and src/server/ResponseCache' }] },
      ],
    },
  },
);
