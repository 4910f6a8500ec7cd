import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { Lineage } from '../../src/db/Lineage.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import type { Db } from '../../src/db/openDb.js';
import { CORPUS } from './corpus.js';
const file = (rel: string): string => path.join(CORPUS, rel);

function lineageOf(db: Db, date: string, number: string): number | null {
  const l = new Lineage(db);
  const e = l.chain('cr').find((x) => x.effectiveDate === date);
  assert.ok(e, `edition ${date}`);
  return l.lineageOf(e.id, number);
}

test('ingest stores lineage ids that survive 706.10 → 707.10, stable across re-ingest and insertion', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-derived-'));
  const dbFile = path.join(dir, 'x.db');
  try {
    // the later edition first: the earlier one is then inserted before it in the chain
    await runIngest({ inputs: expandInputs([file('rulesraker/2021-07-12.txt')]), dbFile });
    let db = openReadOnlyDb(dbFile);
    const copyBefore = lineageOf(db, '2021-07-23', '707.10');
    assert.notEqual(copyBefore, null);
    db.close();

    await runIngest({ inputs: expandInputs([file('rulesraker/2021-06-09.txt')]), dbFile });
    db = openReadOnlyDb(dbFile);
    const old = lineageOf(db, '2021-06-18', '706.10');
    const moved = lineageOf(db, '2021-07-23', '707.10');
    assert.equal(moved, old, '706.10 and 707.10 share a lineage');
    assert.equal(moved, copyBefore, 'the later edition kept its id when an earlier one was inserted');
    assert.notEqual(lineageOf(db, '2021-07-23', '706.10'), old, 'new 706.10 (dice) is another lineage');
    const l = new Lineage(db);
    for (const e of l.chain('cr'))
      assert.ok(
        l.lineageIds(e.id).every((x) => x !== null),
        `all rows of ${e.effectiveDate} have ids`,
      );
    const ids = l.lineageIds(l.chain('cr')[1]!.id);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique within an edition');
    db.close();

    // an unchanged re-ingest writes nothing
    const again = await runIngest({ inputs: expandInputs([file('rulesraker/2021-06-09.txt'), file('rulesraker/2021-07-12.txt')]), dbFile });
    assert.equal(again.wrote, false);
    db = openReadOnlyDb(dbFile);
    assert.equal(lineageOf(db, '2021-07-23', '707.10'), moved);
    db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
