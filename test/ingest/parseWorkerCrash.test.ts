import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { CORPUS } from '../cli/corpusDb.js';
import { tempDir } from '../support/tempDir.js';

// Eight editions: enough for two parse workers (small batches are parsed inline).
const FILES = ['2020-08-07', '2020-09-25', '2020-11-20', '2021-02-02', '2021-04-19', '2021-06-09', '2021-07-12', '2021-11-15'].map((d) =>
  join(CORPUS, 'rulesraker', `${d}.txt`),
);

test('a parse worker that dies (here: out of memory) stops the run with its reason; the stored database is untouched', async () => {
  const dir = tempDir('crkb-crash-');
  const db = join(dir, 'x.db');
  await runIngest({ inputs: expandInputs([join(CORPUS, 'rulesraker', '2020-06-01.txt')]), dbFile: db });
  const before = readFileSync(db);
  const inputs = expandInputs(FILES.filter((f) => existsSync(f)));
  assert.ok(inputs.length >= 5, 'enough inputs for worker threads');
  // without the control this never settles: the requests of a dead worker wait for ever
  const run = runIngest({ inputs, dbFile: db, workerMemoryMb: 2 });
  const stalled = new Promise((_, rej) => setTimeout(() => rej(new Error('the ingest hung after its worker died')), 60_000).unref());
  await assert.rejects(Promise.race([run, stalled]), /parse worker (failed|stopped)/);
  assert.ok(readFileSync(db).equals(before), 'the database is as it was');
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.includes('.tmp-')),
    [],
    'no temporary copy left behind',
  );
});
