import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { lockDatabase } from '../../ingest/store/lockDatabase.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';

const corpus = resolve(process.cwd(), '../shared/corpus');

test('an ingest in the same process waits for the lock, or gives up naming the database', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-lock-'));
  const db = join(dir, 'x.db');
  const held = await lockDatabase(db, { waitMs: 0 });
  try {
    const inputs = expandInputs([join(corpus, 'rulesraker/2003-03-15.txt')]);
    await assert.rejects(runIngest({ inputs, dbFile: db, lockWaitMs: 250 }), (e: Error) => {
      assert.equal(
        e.message,
        `${db}: another ingest is writing this database, still after 0.3 s; nothing was written (try again, or wait longer with --wait SECONDS)`,
      );
      return true;
    });
    assert.equal(existsSync(db), false);
    let waited = 0;
    const run = runIngest({ inputs, dbFile: db, lockWaitMs: 10_000, onLockWait: (ms) => (waited = ms) });
    // the event loop stays free while it waits: this timer runs and lets it in
    setTimeout(() => held.release(), 100);
    const r = await run;
    assert.equal(waited, 10_000);
    assert.deepEqual(
      r.editions.map((e) => e.effectiveDate),
      ['2003-03-15'],
    );
  } finally {
    held.release();
    rmSync(dir, { recursive: true, force: true });
  }
});
