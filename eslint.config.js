import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers (README, "Layout") and what each may import; dependencies run one way. A folder not
// listed here belongs to the layer of its nearest listed parent.
const LAYERS = {
  'src/core': [],
  'ingest/parse': ['src/core'],
  'src/db': ['src/core'],
  'src/engine': ['src/core', 'src/db'],
  'ingest/store': ['src/core', 'ingest/parse', 'src/db', 'src/engine'],
  'src/query': ['src/core', 'src/db', 'src/engine'],
  'src/web': ['src/core', 'src/query', 'src/server/ResponseCache.ts'],
  'src/integrations': ['src/core', 'src/query', 'src/server/ResponseCache.ts'],
  'src/server': ['src/core', 'src/query', 'src/web', 'src/integrations'],
  'src/cli': ['src/core', 'src/query', 'src/server', 'src/integrations', 'ingest/store', 'ingest/parse', 'src/db', 'src/engine'],
};

/** Every folder below a layer (itself included). */
function folders(dir) {
  let out = [dir];
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) out = out.concat(folders(join(dir, e.name)));
  } catch {
    return [];
  }
  return out;
}

/** One config block per folder: imports of the layers it may not use are errors. */
function layerRules() {
  const blocks = [];
  for (const [layer, allowed] of Object.entries(LAYERS)) {
    for (const dir of folders(layer)) {
      const patterns = [];
      for (const other of Object.keys(LAYERS)) {
        if (other === layer || allowed.includes(other) || layer.startsWith(`${other}/`)) continue;
        const rel = relative(dir, other);
        // a whole layer, or (for a layer allowed only one file of it) everything else in it
        const only = allowed.filter((a) => a.startsWith(`${other}/`)).map((a) => `!${relative(dir, a).replace(/\.ts$/, '.js')}`);
        patterns.push({ group: [`${rel}/**`, ...only], message: `${layer} may import only ${allowed.join(', ') || 'nothing of ours'} (README, Layout)` });
      }
      if (patterns.length > 0) blocks.push({ files: [`${dir}/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } });
    }
  }
  return blocks;
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/*.db*', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
  ...layerRules(),
);
