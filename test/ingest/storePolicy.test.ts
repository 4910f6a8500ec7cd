import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openWritableDb } from '../../src/db/openDb.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { buildPolicyDb as build } from '../support/policyFixture.js';
import { captureCli } from '../cli/corpusDb.js';
import { run as runRule } from '../../src/cli/rule.js';
import { run as runDiff } from '../../src/cli/diff.js';
import { run as runHistory } from '../../src/cli/history.js';
import express from 'express';
import { inject } from 'light-my-request';
import { answerInteraction } from '../../src/integrations/discord/answerInteraction.js';
import { policyRoutes } from '../../src/web/policyRoutes.js';
import { Assets } from '../../src/web/Assets.js';
import { tempDir } from '../support/tempDir.js';

test('the tournament documents are stored as editions of their own families, each unit with its title, penalty and parts', async () => {
  const { db } = await build();
  const kb = KnowledgeBase.open(db);
  try {
    // the CR's defaults stay the CR's
    assert.equal(kb.resolveEdition('latest').edition.family, 'cr');
    assert.equal(kb.resolveEdition('latest', 'ipg').edition.effectiveDate, '2021-02-05');
    assert.equal(kb.resolveEdition('2021-01-01', 'ipg').edition.effectiveDate, '2020-09-25');
    const ipg = kb.resolveEdition('latest', 'ipg').edition;
    const mt = kb.rule(ipg.id, '2.1')!;
    const unit = kb.unit(mt)!;
    assert.equal(unit.title, 'Game Play Error — Missed Trigger');
    assert.equal(unit.penalty, 'Warning');
    assert.deepEqual(
      unit.parts.map((p) => p.name),
      ['definition', 'examples', 'philosophy'],
    );
    assert.deepEqual(kb.examples(mt), ['A. A player forgets an upkeep trigger.']);
    assert.equal(kb.rule(ipg.id, 'Appendix A')?.kind, 'appendix');
    assert.equal(kb.unit(kb.rule(kb.resolveEdition('latest').edition.id, '704.5')!), null);
  } finally {
    kb.close();
  }
});

test('lookups name their document ("ipg 2.1", "mtr 4.2"); a diff and a history follow a unit across renumbering', async () => {
  const { db } = await build();
  const kb = KnowledgeBase.open(db);
  try {
    const scope = kb.lookupScope(undefined, 'ipg 2.1');
    assert.equal(scope.edition.family, 'ipg');
    assert.equal(scope.query, '2.1');
    assert.deepEqual(
      kb.lookup(scope.edition, scope.query).rules.map((r) => r.number),
      ['2.1'],
    );
    const mtr = kb.lookupScope('latest', 'MTR 4.2');
    assert.match(kb.lookup(mtr.edition, mtr.query).rules[0]!.text, /^Tournament Shortcuts\nA tournament shortcut/);
    // a query naming no document reads the CR, as before
    assert.equal(kb.lookupScope(undefined, '704.5').edition.family, 'cr');
    // a unit's title answers for it
    const titled = kb.lookup(scope.edition, 'looking at extra cards');
    assert.deepEqual([titled.kind, titled.rules.map((r) => r.number)], ['rule', ['2.3']]);
    assert.deepEqual(
      kb.lookup(kb.resolveEdition('2020-09-25', 'ipg').edition, 'Looking at Extra Cards').rules.map((r) => r.number),
      ['2.2'],
    );

    const [from, to] = [kb.resolveEdition('2020-09-25', 'ipg').edition, kb.resolveEdition('2021-02-05', 'ipg').edition];
    const d = kb.diff(from, to, { rulesOnly: true });
    const by = (n: string) => d.changes.find((c) => (c.after?.number ?? c.before?.number) === n);
    assert.equal(by('2.2')?.before, null, '2.2 is new');
    assert.equal(by('2.3')?.before?.number, '2.2', 'Looking at Extra Cards renumbered 2.2 → 2.3');
    assert.equal(by('2.3')?.textChange, 'none');
    assert.equal(by('2.1')?.textChange, 'substantive');
    const h = kb.history(to, '2.3')!;
    assert.deepEqual(
      h.steps.map((s) => [s.date, s.number]),
      [
        ['2020-09-25', '2.2'],
        ['2021-02-05', '2.3'],
      ],
    );
  } finally {
    kb.close();
  }
});

test('the bot and the web read the tournament documents: /ipg in Discord, /ipg/latest/2.1, its history and a diff', async () => {
  const { db } = await build();
  const kb = KnowledgeBase.open(db);
  try {
    const r = answerInteraction(kb, { type: 2, data: { name: 'ipg', options: [{ name: 'query', value: 'missed trigger' }] } }, 'https://crkb.example');
    const content = 'data' in r && 'content' in r.data ? r.data.content : '';
    assert.match(content, /^\*\*2\.1\*\* Game Play Error — Missed Trigger \\\[Warning\\\]: Definition/);
    assert.match(content, /\*IPG 2021-02-05\*/);
    assert.match(content, /https:\/\/crkb\.example\/ipg\/2021-02-05\/2\.1/);
    const app = express().use(policyRoutes({ kb: () => kb, cache: null, publicUrl: () => 'https://crkb.example', assets: new Assets() }));
    const get = async (url: string) => inject(app, { method: 'GET', url });
    const unit = await get('/ipg/latest/2.1');
    assert.equal(unit.statusCode, 200);
    assert.match(unit.body, /Game Play Error — Missed Trigger<\/h1>/);
    assert.match(unit.body, /Penalty: <strong>Warning<\/strong>/);
    const history = await get('/ipg/history/2.3');
    assert.match(history.body, /2020-09-25<\/a> <span class="num">2\.2<\/span>/);
    const diff = await get('/ipg/diff/2020-09-25/2021-02-05');
    assert.match(diff.body, /renumbered from 2\.2/);
    assert.equal((await get('/ipg/latest/9.9')).statusCode, 404);
    assert.equal((await get('/mtr/latest/4.2')).statusCode, 200);
  } finally {
    kb.close();
  }
});

test('crkb rule reads a tournament document named in the query or by --family', async () => {
  const { db } = await build();
  const byName = await captureCli(runRule, db, ['ipg 2.1']);
  assert.equal(byName.code, 0, byName.err);
  assert.match(byName.out, /^2\.1 Game Play Error — Missed Trigger \[Warning\]: Definition/);
  assert.match(byName.out, /\(IPG 2021-02-05\)/);
  const byOption = await captureCli(runRule, db, ['4.2', '--family', 'mtr']);
  assert.match(byOption.out, /^4\.2 Tournament Shortcuts: A tournament shortcut/);
  await assert.rejects(captureCli(runRule, db, ['4.2', '--family', 'tmr']), /--family must be cr, rulings, mtr, ipg, jar, not "tmr"/);
  const diff = await captureCli(runDiff, db, ['2020-09-25', '2021-02-05', '--family', 'ipg', '--json']);
  assert.equal(diff.code, 0, diff.err);
  const renumbered = (JSON.parse(diff.out) as { changes: Array<{ before: { number: string } | null; after: { number: string } | null }> }).changes.find(
    (c) => c.after?.number === '2.3',
  );
  assert.equal(renumbered?.before?.number, '2.2');
  const history = await captureCli(runHistory, db, ['2.3', '--family', 'ipg']);
  assert.match(history.out, /2020-09-25\s+2\.2/);
});

test('the JAR through the bot and the CLI: /jar in Discord, crkb rule "jar 1.1", crkb diff and history --family jar', async () => {
  const { db } = await build();
  const kb = KnowledgeBase.open(db);
  try {
    const r = answerInteraction(kb, { type: 2, data: { name: 'jar', options: [{ name: 'query', value: 'triggered ability' }] } }, 'https://crkb.example');
    const content = 'data' in r && 'content' in r.data ? r.data.content : '';
    assert.match(content, /^\*\*1\.1\*\* A player forgets a triggered ability/);
    assert.match(content, /\*JAR 2019-01-21; numbers by crkb, not published\*/);
    assert.match(content, /https:\/\/crkb\.example\/jar\/2019-01-21\/1\.1/);
  } finally {
    kb.close();
  }
  const rule = await captureCli(runRule, db, ['jar 1.1', '--edition', '2014-09-26']);
  assert.equal(rule.code, 0, rule.err);
  assert.match(rule.out, /^1\.1 A player forgets a triggered ability .*use your judgement/);
  assert.match(rule.out, /\(JAR 2014-09-26; numbers by crkb, not published\)/);
  const diff = await captureCli(runDiff, db, ['2014-09-26', '2019-01-21', '--family', 'jar', '--json']);
  assert.equal(diff.code, 0, diff.err);
  const changes = (JSON.parse(diff.out) as { changes: Array<{ after: { number: string } | null; textChange: string }> }).changes;
  assert.deepEqual(
    changes.map((c) => [c.after?.number, c.textChange]),
    [
      ['1.1', 'substantive'],
      ['1.2', 'substantive'],
    ],
  );
  const history = await captureCli(runHistory, db, ['1.2', '--family', 'jar']);
  assert.match(history.out, /2014-09-26\s+1\.2/);
  assert.match(history.out, /2019-01-21\s+1\.2/);
});

test('a database written before the tournament documents, or before the JAR, gets its family CHECKs widened, its rows kept', () => {
  for (const families of ["'cr', 'rulings'", "'cr', 'rulings', 'mtr', 'ipg'"]) {
    const dir = tempDir('crkb-widen-');
    const file = join(dir, 'old.db');
    const old = new Database(file);
    old.exec(`CREATE TABLE editions (id INTEGER PRIMARY KEY, family TEXT NOT NULL CHECK (family IN (${families})),
      effective_date TEXT NOT NULL, official INTEGER NOT NULL DEFAULT 1, label TEXT NOT NULL DEFAULT '', set_code TEXT, set_name TEXT,
      title TEXT, introduction TEXT, credits TEXT, primary_file_id INTEGER, warnings TEXT NOT NULL DEFAULT '[]', UNIQUE (family, effective_date, label))`);
    old.exec(`INSERT INTO editions (family, effective_date) VALUES ('cr', '2021-07-23')`);
    old.close();
    const db = openWritableDb(file);
    try {
      db.exec(`INSERT INTO editions (family, effective_date) VALUES ('ipg', '2021-02-05')`);
      db.exec(`INSERT INTO editions (family, effective_date) VALUES ('jar', '2019-01-21')`);
      assert.deepEqual(db.prepare('SELECT family, effective_date AS d FROM editions ORDER BY id').all(), [
        { family: 'cr', d: '2021-07-23' },
        { family: 'ipg', d: '2021-02-05' },
        { family: 'jar', d: '2019-01-21' },
      ]);
      assert.throws(() => db.exec(`INSERT INTO editions (family, effective_date) VALUES ('nope', '2021-02-05')`), /CHECK constraint failed/);
      assert.deepEqual(db.pragma('foreign_key_check'), []);
    } finally {
      db.close();
    }
  }
});
