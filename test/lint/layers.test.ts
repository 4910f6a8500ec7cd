import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { projectRoot } from '../../src/core/projectFiles.js';

// the layer rules need no type information (and the probes are files no TypeScript project holds)
const eslint = new ESLint({ cwd: projectRoot(), overrideConfig: [tseslint.configs.disableTypeChecked] });

/** The messages of crkb's layer rules (crkb/layers, crkb/no-cycle) lint gives a file at `path` holding `code`. */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: `${projectRoot()}/${path}` });
  return r!.messages.filter((m) => m.ruleId?.startsWith('crkb/')).map((m) => `${m.ruleId}: ${m.message}`);
}

test('lint refuses imports against the layers and allows the ones the README lists', async () => {
  // core imports nothing of ours
  assert.match(
    (await layerErrors('src/core/probe.ts', "import { Snapshot } from '../db/Snapshot.js';\nexport const x = Snapshot;\n"))[0] ?? '',
    /src\/core may import only nothing of ours/,
  );
  // a parser may not touch the database or the ingest run
  assert.equal((await layerErrors('ingest/parse/probe.ts', "import { Writer } from '../store/Writer.js';\nexport const x = Writer;\n")).length, 1);
  // the query layer may not import an edge, nested folders included, nor re-export one
  assert.equal((await layerErrors('src/query/probe.ts', "import { buildServer } from '../server/buildServer.js';\nexport const x = buildServer;\n")).length, 1);
  assert.equal((await layerErrors('src/query/probe.ts', "export { buildServer } from '../server/buildServer.js';\n")).length, 1);
  assert.equal(
    (await layerErrors('src/server/resolvers/probe.ts', "import { Snapshot } from '../../db/Snapshot.js';\nexport const x = Snapshot;\n")).length,
    1,
  );
  // layered code never imports tests or benchmarks
  assert.match((await layerErrors('src/query/probe.ts', "export { x } from '../../test/support/tempDir.js';\n"))[0] ?? '', /may not import test\//);
  // allowed: the server through the query layer, the engine on the database layer, the CLI anything
  assert.deepEqual(
    await layerErrors('src/server/resolvers/probe.ts', "import { KnowledgeBase } from '../../query/KnowledgeBase.js';\nexport const x = KnowledgeBase;\n"),
    [],
  );
  assert.deepEqual(await layerErrors('src/engine/probe.ts', "import { Snapshot } from '../db/Snapshot.js';\nexport const x = Snapshot;\n"), []);
  assert.deepEqual(await layerErrors('src/cli/probe.ts', "import { layout } from '../web/layout.js';\nexport const x = layout;\n"), []);
});

test('the response cache is in src/http, which the server and both edges may import and the query layer may not', async () => {
  for (const [file, spec] of [
    ['src/server/probe.ts', '../http/ResponseCache.js'],
    ['src/web/probe.ts', '../http/ResponseCache.js'],
    ['src/integrations/feeds/probe.ts', '../../http/ResponseCache.js'],
  ]) {
    assert.deepEqual(await layerErrors(file!, `import { SHORT } from '${spec}';\nexport const x = SHORT;\n`), [], file);
  }
  assert.match(
    (await layerErrors('src/query/probe.ts', "import { SHORT } from '../http/ResponseCache.js';\nexport const x = SHORT;\n"))[0] ?? '',
    /src\/http.*src\/query may import only/,
  );
  // and the web edge may not import the server (as it did through server/ResponseCache.ts)
  assert.equal((await layerErrors('src/web/probe.ts', "import { listen } from '../server/listen.js';\nexport const x = listen;\n")).length, 1);
});

test('lint refuses a file in a folder that belongs to no layer, and an import of one', async () => {
  const [own] = await layerErrors('src/newthing/probe.ts', 'export const x = 1;\n');
  assert.match(own ?? '', /^crkb\/layers: src\/newthing\/ belongs to no layer/);
  assert.match((await layerErrors('ingest/probe.ts', 'export const x = 1;\n'))[0] ?? '', /ingest\/ belongs to no layer/);
  // a new folder importing the ingest run is refused for its folder, whatever it imports
  assert.equal(
    (await layerErrors('src/newthing/probe.ts', "import { runIngest } from '../../ingest/store/runIngest.js';\nexport const x = runIngest;\n")).length,
    1,
  );
  assert.match(
    (await layerErrors('src/cli/probe.ts', "import { x } from '../newthing/x.js';\nexport const y = x;\n"))[0] ?? '',
    /src\/newthing\/x\.js, which belongs to no layer/,
  );
});

test('lint refuses a dynamic import across the layers, and one it cannot read', async () => {
  const [err] = await layerErrors('src/query/probe.ts', "export const load = () => import('../server/buildServer.js');\n");
  assert.match(err ?? '', /^crkb\/layers: dynamic import\(…\) of src\/server\/buildServer\.js \(src\/server\): src\/query may import only/);
  assert.match((await layerErrors('src/query/probe.ts', 'export const load = (f: string) => import(f);\n'))[0] ?? '', /names its module by a string literal/);
  // within a layer, and a package by name, are fine
  assert.deepEqual(await layerErrors('src/cli/probe.ts', "export const load = () => import('./serve.js');\n"), []);
  assert.deepEqual(await layerErrors('ingest/store/probe.ts', "export const load = () => import('word-extractor');\n"), []);
});

test('lint refuses new URL(…, import.meta.url) reaching into another layer', async () => {
  const [err] = await layerErrors('src/query/probe.ts', "export const worker = new URL('../server/heavyWorker.js', import.meta.url);\n");
  assert.match(err ?? '', /^crkb\/layers: new URL\(…, import\.meta\.url\) of src\/server\/heavyWorker\.js/);
  assert.match((await layerErrors('src/query/probe.ts', 'export const u = (f: string) => new URL(f, import.meta.url);\n'))[0] ?? '', /string literal/);
  // a worker of its own layer, and the built assets outside src/, are fine
  assert.deepEqual(await layerErrors('src/server/probe.ts', "export const worker = new URL('./heavyWorker.js', import.meta.url);\n"), []);
  assert.deepEqual(await layerErrors('src/web/probe.ts', "export const dir = new URL('../../web/', import.meta.url);\n"), []);
});

test('lint refuses an import cycle, type-only imports included', async () => {
  // buildServer.ts imports a type from heavyTask.ts: a type imported back closes a cycle of types alone
  const [cycle] = await layerErrors('src/server/heavyTask.ts', "import type { BuiltServer } from './buildServer.js';\nexport type X = BuiltServer;\n");
  assert.match(cycle ?? '', /^crkb\/no-cycle: import cycle: src\/server\/heavyTask\.ts → src\/server\/buildServer\.ts → src\/server\/heavyTask\.ts/);
  // a longer one: heavyWorker.ts → buildServer.ts → HeavyPool.ts → (here) heavyWorker.ts
  const [long] = await layerErrors('src/server/HeavyPool.ts', "import type { Worker } from './heavyWorker.js';\nexport type X = Worker;\n");
  assert.match(long ?? '', /HeavyPool\.ts → src\/server\/heavyWorker\.ts → src\/server\/buildServer\.ts → src\/server\/HeavyPool\.ts/);
  // storeFormat.ts imports openDb.ts: a dynamic import back closes one too
  const [dynamic] = await layerErrors('src/db/openDb.ts', "export const load = () => import('./storeFormat.js');\n");
  assert.match(dynamic ?? '', /^crkb\/no-cycle: import cycle: src\/db\/openDb\.ts → src\/db\/storeFormat\.ts → src\/db\/openDb\.ts/);
  // the same imports one way only are fine, and a worker started by URL is no import
  assert.deepEqual(await layerErrors('src/server/heavyTask.ts', "import type { QueryLimits } from './limits.js';\nexport type X = QueryLimits;\n"), []);
  assert.deepEqual(await layerErrors('src/cli/serve.ts', "export const main = new URL('./main.js', import.meta.url);\n"), []);
});
