import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { lockDatabase } from '../../ingest/store/lockDatabase.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { runIngestInWorker } from '../../ingest/store/runIngestInWorker.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { tempDir } from '../support/tempDir.js';

const corpus = resolve(process.cwd(), '../shared/corpus');
const files = ['rulesraker/2021-06-09.txt', 'mtg-cr/CR-2021-07-12.txt', 'rulesraker/2021-07-12.txt'].map((f) => join(corpus, f));

test('an ingest on a worker thread stores and reports what runIngest does, relaying its progress', async () => {
  const dir = tempDir('crkb-inworker-');
  const seen: string[] = [];
  const inWorker = await runIngestInWorker({ inputs: expandInputs(files), dbFile: join(dir, 'a.db'), onProgress: (_d, _t, current) => seen.push(current) });
  const here = await runIngest({ inputs: expandInputs(files), dbFile: join(dir, 'b.db') });
  const editions = (r: typeof here): unknown => r.editions.map((e) => [e.effectiveDate, e.counts, e.files.map((f) => [f.path, f.differing])]);
  assert.deepEqual(editions(inWorker), editions(here));
  assert.deepEqual(inWorker.rejected, here.rejected);
  assert.ok(
    files.every((f) => seen.includes(f)),
    'every input was reported as it was read and parsed',
  );
  assert.ok(inWorker.threadCpuSeconds!.length >= 2, 'the ingest thread and the parse worker are counted');
});

test('on a worker thread, a database locked by another ingest is waited for, then refused with the same IngestError', async () => {
  const dir = tempDir('crkb-inworker-');
  const db = join(dir, 'x.db');
  const held = await lockDatabase(db, { waitMs: 0 });
  try {
    let waited = 0;
    const run = runIngestInWorker({ inputs: expandInputs([files[0]!]), dbFile: db, lockWaitMs: 300, onLockWait: (ms) => (waited = ms) });
    await assert.rejects(run, (e: unknown) => {
      assert.ok(e instanceof IngestError);
      assert.equal(e.source, db);
      assert.match(e.reason, /^another ingest is writing this database/);
      return true;
    });
    assert.equal(waited, 300);
    assert.equal(existsSync(db), false);
  } finally {
    held.release();
  }
});

test('on a worker thread, a parse worker that dies still stops the run with its reason, leaving nothing behind', async () => {
  const dir = tempDir('crkb-inworker-');
  const inputs = expandInputs(['2020-08-07', '2020-09-25', '2020-11-20', '2021-02-02', '2021-04-19'].map((d) => join(corpus, 'rulesraker', `${d}.txt`)));
  await assert.rejects(runIngestInWorker({ inputs, dbFile: join(dir, 'x.db'), workerMemoryMb: 2 }), /parse worker (failed|stopped)/);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.db') || f.includes('.tmp-')),
    [],
  );
});
