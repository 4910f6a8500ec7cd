import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/cite.js';
import { fixtureDbWithLineage } from '../server/fixtures.js';
import { captureCli } from './corpusDb.js';

let dir = '';
let db = '';
let file = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-cite-'));
  db = path.join(dir, 'x.db');
  fixtureDbWithLineage(db).close();
  file = path.join(dir, 'notes.md');
  fs.writeFileSync(file, 'The copy rule is rule 706.10; trample is 702.19 (Trample).\n');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('crkb cite prints a Markdown table and exits 2 when a citation needs a look', async () => {
  const r = await captureCli(run, db, [file, '--as-of', '2021-06-20']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.out, /against the 2021-06-18 edition, checked in the 2021-07-23 edition/);
  assert.match(r.out, /\| 706\.10 \| moved \| 707\.10\. \|/);
  assert.match(r.out, /\| 702\.19 \| same \| 702\.19\. \| Trample \| title “Trample” matches \|/);
});

test('crkb cite --json, --to, and a clean file exits 0', async () => {
  const r = await captureCli(run, db, [file, '--as-of', '2021-06-18', '--to', '2021-06-18', '--json']);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { citations: Array<{ status: string }> };
  assert.deepEqual(
    j.citations.map((c) => c.status),
    ['same', 'same'],
  );
  const missing = await captureCli(run, db, [file]).catch((e: Error) => e);
  assert.match(String(missing), /--as-of is required/);
});
