import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { projectRoot } from '../../src/core/projectFiles.js';

const eslint = new ESLint({ cwd: projectRoot() });

/** The layer-rule messages lint gives a file at `path` holding `code`. */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: `${projectRoot()}/${path}` });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test('lint refuses imports against the layers and allows the ones the README lists', async () => {
  // core imports nothing of ours
  assert.match(
    (await layerErrors('src/core/probe.ts', "import { Snapshot } from '../db/Snapshot.js';\nexport const x = Snapshot;\n"))[0] ?? '',
    /src\/core may import only nothing of ours/,
  );
  // a parser may not touch the database or the ingest run
  assert.equal((await layerErrors('ingest/parse/probe.ts', "import { Writer } from '../store/Writer.js';\nexport const x = Writer;\n")).length, 1);
  // the query layer may not import an edge, nested folders included
  assert.equal((await layerErrors('src/query/probe.ts', "import { buildServer } from '../server/buildServer.js';\nexport const x = buildServer;\n")).length, 1);
  assert.equal(
    (await layerErrors('src/server/resolvers/probe.ts', "import { Snapshot } from '../../db/Snapshot.js';\nexport const x = Snapshot;\n")).length,
    1,
  );
  // allowed: the server through the query layer, the engine on the database layer
  assert.deepEqual(
    await layerErrors('src/server/resolvers/probe.ts', "import { KnowledgeBase } from '../../query/KnowledgeBase.js';\nexport const x = KnowledgeBase;\n"),
    [],
  );
  assert.deepEqual(await layerErrors('src/engine/probe.ts', "import { Snapshot } from '../db/Snapshot.js';\nexport const x = Snapshot;\n"), []);
});
