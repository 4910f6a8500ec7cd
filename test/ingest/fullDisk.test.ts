import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { runIngestInWorker } from '../../ingest/store/runIngestInWorker.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { tempDir } from '../support/tempDir.js';

const corpus = resolve(process.cwd(), '../shared/corpus');
const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

// A full disk, portably (as root or not, on any file system): SQLite's max_page_count on the copy
// being built fails its growth with SQLITE_FULL, the error a full disk gives.
test('a full disk during an ingest is named (the copy being written, the database) and leaves the previous database intact', async () => {
  const dir = tempDir('crkb-full-');
  const dbFile = join(dir, 'crkb.db');
  const first = await runIngest({ inputs: expandInputs([join(corpus, 'rulesraker/2021-06-09.txt')]), dbFile });
  const stored = first.editions.map((e) => e.effectiveDate);
  const before = sha256(dbFile);
  const db = openReadOnlyDb(dbFile);
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.close();
  // the way the CLI runs it: on a worker thread, the error crossing back as a message
  const run = runIngestInWorker({ inputs: expandInputs([join(corpus, 'rulesraker/2021-07-12.txt')]), dbFile, maxPages: pages + 8 });
  await assert.rejects(run, (e: unknown) => {
    const tmp = `${dbFile}.tmp-${process.pid}`;
    assert.equal(
      (e as Error).message,
      `the disk is full while writing ${tmp} (the new copy of ${dbFile}); nothing was changed: the previous database is intact`,
    );
    return true;
  });
  assert.equal(sha256(dbFile), before, 'the database is byte for byte what it was');
  assert.deepEqual(readdirSync(dir).sort(), ['crkb.db', 'crkb.db.lock'], 'the copy was removed');
  const after = openReadOnlyDb(dbFile);
  assert.deepEqual(after.prepare('SELECT effective_date FROM editions').pluck().all(), stored);
  after.close();
  // with room, the same run stores the edition
  const ok = await runIngest({ inputs: expandInputs([join(corpus, 'rulesraker/2021-07-12.txt')]), dbFile });
  assert.equal(ok.editions.length, 1);
  assert.notDeepEqual(
    ok.editions.map((e) => e.effectiveDate),
    stored,
  );
});
