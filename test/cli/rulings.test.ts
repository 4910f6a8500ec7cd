import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../support/tempDir.js';
import { spawnSync } from 'node:child_process';

import { join, resolve } from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';

const shared = resolve(process.cwd(), '../shared');
const db = join(tempDir('crkb-rulings-'), 'x.db');

function crkb(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/crkb.js', ...args, '--db', db], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(async () => {
  const r = await runIngest({
    inputs: expandInputs([join(shared, 'corpus/mtg-cr/CR-1999-04-21.txt'), join(shared, 'seeds/002_11781e35e8daa943.txt')]),
    dbFile: db,
  });
  assert.deepEqual(r.rejected, []);
});

test('the Rulings Summaries notes are read with their section', () => {
  const kb = KnowledgeBase.open(db);
  try {
    const e = kb.resolveEdition('1999-04-21', 'rulings').edition;
    const withNotes = kb.sections(e.id).filter((s) => kb.notes(kb.rule(e.id, s.number)!).length > 0);
    assert.ok(withNotes.length > 10, `${withNotes.length} sections with notes`);
    const all = kb.numbers(e.id).flatMap((n) => kb.notes(kb.rule(e.id, n)!));
    assert.equal(all.length, 196);
    assert.ok(all.every((n) => n.trim().length > 0));
    assert.ok(all.some((n) => /Counts as a/.test(n)));
  } finally {
    kb.close();
  }
});

test('the Rulings Summaries are a family of their own, kept apart from the CR', () => {
  assert.match(crkb('editions').stdout, /^0 editions/m);
  const list = JSON.parse(crkb('editions', '--family', 'rulings', '--json').stdout) as Array<{ effectiveDate: string; official: boolean }>;
  assert.deepEqual(
    list.map((e) => [e.effectiveDate, e.official]),
    [
      ['1999-04-21', true],
      ['1999-12-11', false],
    ],
  );
});

test('export, history and diff work on the rulings family', () => {
  const out = JSON.parse(crkb('export', '--family', 'rulings', '--edition', 'latest').stdout) as {
    effectiveDate: string;
    rules: Array<{ number: string; parent: string | null; text: string }>;
  };
  assert.equal(out.effectiveDate, '1999-04-21');
  const templates = out.rules.find((r) => r.number === 'E.13')!;
  assert.match(templates.text, /Templates/);
  assert.equal(out.rules.find((r) => r.number === 'E.13.Ruling.3')?.parent, 'E.13');

  const h = crkb('history', 'E.13.Ruling.3', '--family', 'rulings', '--json');
  assert.equal(h.status, 0, h.stderr);
  const history = JSON.parse(h.stdout) as { steps: Array<{ date: string; number: string }> };
  assert.deepEqual(
    history.steps.map((s) => [s.date, s.number]),
    [['1999-04-21', 'E.13.Ruling.3']],
  );
  // A CR number is not a rulings number, and the other way round.
  assert.equal(crkb('history', 'E.13.Ruling.3').status, 1);
  assert.equal(crkb('history', '702.19', '--family', 'rulings').status, 1);

  const page = crkb('export', '--family', 'rulings', '--edition', 'unofficial:78132c49');
  assert.equal(page.status, 0, page.stderr);
  assert.ok((JSON.parse(page.stdout) as { rules: Array<{ number: string }> }).rules.some((r) => r.number === 'E.12.Ruling.3'));
  const d = crkb('diff', '1999-04-21', 'unofficial:78132c49', '--family', 'rulings', '--json');
  assert.equal(d.status, 0, d.stderr);
  const changes = (JSON.parse(d.stdout) as { changes: Array<{ before: { number: string } | null; after: { number: string } | null }> }).changes;
  assert.ok(changes.some((c) => c.after?.number === 'E.12.Ruling.3'));
});
