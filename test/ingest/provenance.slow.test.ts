import { test, before, beforeEach, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runIngest, type IngestReport } from '../../ingest/store/runIngest.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';

const corpus = resolve(process.cwd(), '../shared/corpus');
const seeds = resolve(process.cwd(), '../shared/seeds');
const seed = (n: string): string => join(seeds, readSeedName(n));
function readSeedName(n: string): string {
  const names: Record<string, string> = {
    '000': '000_fd7f68269be61ced.txt',
    '001': '001_2032b41ab82f9f7f.txt',
    '002': '002_11781e35e8daa943.txt',
    '003': '003_444c9430a34e273b.txt',
    '004': '004_1a2767f0f6f64d46.txt',
  };
  return names[n]!;
}

// A handful of editions around the seeds: 2006-05-01 … 2007-05-01, 2020-08-07 … 2021-07-23, 2022-11-18, rulings 1999-04-21.
const EDITION_FILES = [
  'mtg-cr/CR-1999-04-21.txt',
  'mtg-cr/CR-2006-05-01.txt',
  'mtg-cr/CR-2006-07-15.txt',
  'mtg-cr/CR-2006-10-01.txt',
  'mtg-cr/CR-2007-02-01.txt',
  'mtg-cr/CR-2007-05-01.txt',
  'rulesraker/2020-08-07.txt',
  'rulesraker/2020-09-25.txt',
  'rulesraker/2021-04-19.txt',
  'rulesraker/2021-06-09.txt',
  'rulesraker/2021-07-12.txt',
  'rulesraker/2022-11-18.txt',
];

let dir: string;
let base: string;
let dbFile: string;
let copies = 0;

async function ingest(paths: string[], edition: string | null = null): Promise<IngestReport> {
  return runIngest({ inputs: paths.map((location) => ({ kind: 'file' as const, location })), dbFile, edition });
}

function query<T>(sql: string, params: unknown[] = []): T[] {
  const db = openReadOnlyDb(dbFile);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Every official rule text, by edition and number: must never change when fragments are ingested. */
function officialSnapshot(): string {
  const rows = query<{ d: string; n: string; b: string }>(
    `SELECT e.effective_date AS d, v.number AS n, t.body AS b FROM edition_rules er
     JOIN editions e ON e.id = er.edition_id JOIN rule_versions v ON v.id = er.version_id JOIN texts t ON t.id = v.text_id
     WHERE e.official = 1 ORDER BY e.id, er.ord`,
  );
  return JSON.stringify(rows);
}

function ruleText(date: string, number: string, label = ''): string | undefined {
  return query<{ b: string }>(
    `SELECT t.body AS b FROM edition_rules er JOIN editions e ON e.id = er.edition_id
     JOIN rule_versions v ON v.id = er.version_id JOIN texts t ON t.id = v.text_id
     WHERE e.effective_date = ? AND e.label = ? AND v.number = ?`,
    [date, label, number],
  )[0]?.b;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crkb-provenance-'));
  base = dbFile = join(dir, 'base.db');
  const r = await ingest(EDITION_FILES.map((f) => join(corpus, f)));
  assert.deepEqual(r.rejected, []);
  assert.equal(r.editions.length, EDITION_FILES.length);
});

// Every test starts from the same editions, in a copy of its own: no test sees another's fragments.
beforeEach(() => {
  dbFile = join(dir, `test-${++copies}.db`);
  copyFileSync(base, dbFile);
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('seed 001 matches 2020-09-25 … 2021-06-18 and is attached to 2021-06-18, whose 700.2g cites 706.10', async () => {
  const before = officialSnapshot();
  const r = await ingest([seed('001')]);
  assert.deepEqual(r.rejected, []);
  const f = r.fragments[0]!;
  assert.deepEqual(f.range, { from: '2020-09-25', to: '2021-06-18' });
  assert.equal(f.attachedTo, '2021-06-18');
  assert.equal(f.attachedBy, 'identified');
  assert.equal(f.official, true);
  assert.deepEqual([f.matched, f.total, f.disagreements], [22, 22, 0]);
  assert.equal(f.summary, 'matches 2020-09-25 … 2021-06-18 on 22 of 22 rules; 0 disagreements');
  assert.match(ruleText('2021-06-18', '700.2g')!, /706\.10/);
  assert.match(ruleText('2021-07-23', '700.2g')!, /707\.10/);
  const rows = query<{ status: string; n: number }>(
    `SELECT r.status, count(*) AS n FROM fragment_rules r JOIN fragment_sources s ON s.id = r.source_id
     JOIN source_files f ON f.id = s.file_id WHERE f.path = ? AND f.role = 'fragment' GROUP BY r.status`,
    [seed('001')],
  );
  assert.deepEqual(rows, [{ status: 'match', n: 22 }]);
  assert.equal(officialSnapshot(), before);
});

test('seed 003 (lost apostrophes and quotes) matches 2021-04-22 … 2021-06-18 on all rules, 607.2a–607.2n and 607.5a', async () => {
  const r = await ingest([seed('003')]);
  const f = r.fragments[0]!;
  assert.deepEqual(f.range, { from: '2021-04-22', to: '2021-06-18' });
  assert.deepEqual([f.matched, f.total, f.disagreements], [24, 24, 0]);
  const numbers = query<{ number: string }>(
    `SELECT r.number FROM fragment_rules r JOIN fragment_sources s ON s.id = r.source_id JOIN source_files f ON f.id = s.file_id
     WHERE f.path = ? ORDER BY r.ord`,
    [seed('003')],
  ).map((x) => x.number);
  for (const n of ['607.2a', '607.2m', '607.2n', '607.5a']) assert.ok(numbers.includes(n), n);
});

test('seed 004 is a mid-2000s fragment: 2006-07-15 … 2007-02-01, 202.2b included, one disagreement (a lost URL in 200.2)', async () => {
  const r = await ingest([seed('004')]);
  const f = r.fragments[0]!;
  assert.deepEqual(f.range, { from: '2006-07-15', to: '2007-02-01' });
  assert.equal(f.attachedTo, '2007-02-01');
  assert.deepEqual([f.matched, f.total, f.disagreements], [27, 28, 1]);
  const src = query<{ report: string }>(`SELECT s.report FROM fragment_sources s JOIN source_files f ON f.id = s.file_id WHERE f.path = ?`, [seed('004')])[0]!;
  const report = JSON.parse(src.report) as {
    disagreements: Array<{ number: string; status: string; diff: Array<{ op: string; text: string }> }>;
    rules: Array<{ number: string }>;
  };
  assert.ok(report.rules.some((x) => x.number === '202.2b'));
  assert.deepEqual(
    report.disagreements.map((d) => [d.number, d.status]),
    [['200.2', 'differs']],
  );
  assert.deepEqual(
    report.disagreements[0]!.diff.filter((s) => s.op !== 'equal'),
    [{ op: 'delete', text: ' http://gatherer.wizards.com.' }],
  );
});

test('seed 000 (a later edition than any stored) becomes its own unofficial edition; its 700.2g cites 707.10', async () => {
  const before = officialSnapshot();
  const r = await ingest([seed('000')]);
  const f = r.fragments[0]!;
  assert.equal(f.attachedBy, 'unofficial');
  assert.equal(f.official, false);
  assert.match(f.label, /^unofficial:[0-9a-f]{8}$/);
  assert.deepEqual(f.range, { from: '2022-11-18', to: '2022-11-18' });
  assert.deepEqual([f.matched, f.total], [25, 35]);
  const ed = query<{ official: number; effective_date: string }>('SELECT official, effective_date FROM editions WHERE label = ?', [f.label]);
  assert.deepEqual(
    ed.map((e) => e.official),
    [0],
  );
  assert.match(ruleText(ed[0]!.effective_date, '700.2g', f.label)!, /707\.10/);
  assert.equal(officialSnapshot(), before);
});

test('rulings seed 002 is stored as an unofficial rulings edition dated by its latest citation', async () => {
  const r = await ingest([seed('002')]);
  assert.deepEqual(r.rejected, []);
  const f = r.fragments[0]!;
  assert.equal(f.family, 'rulings');
  assert.equal(f.attachedBy, 'unofficial');
  assert.equal(f.attachedTo, '1999-12-11');
  const cites = query<{ citations: string }>(
    `SELECT v.citations FROM edition_rules er JOIN editions e ON e.id = er.edition_id JOIN rule_versions v ON v.id = er.version_id
     WHERE e.label = ? AND v.number = 'E.12.Ruling.3'`,
    [f.label],
  )[0]!;
  assert.ok((JSON.parse(cites.citations) as Array<{ source: string; date: string }>).some((c) => c.source === 'CompRules' && c.date === '1999-11-01'));
});

test('a page contradicting the official text is reported rule by rule; official text untouched', async () => {
  const before = officialSnapshot();
  const file = join(dir, 'mirror.txt');
  const text = readFileSync(seed('001'), 'utf8').replace('Anything that happens in a game is an event.', 'Nothing that happens in a game is an event.');
  writeFileSync(file, text);
  const r = await ingest([file]);
  const f = r.fragments[0]!;
  assert.equal(f.attachedTo, '2021-06-18');
  assert.equal(f.disagreements, 1);
  assert.match(f.summary, /on 22 of 22 rules \(1 near\); 1 disagreement$/);
  const src = JSON.parse(
    query<{ report: string }>('SELECT s.report FROM fragment_sources s JOIN source_files f ON f.id = s.file_id WHERE f.path = ?', [file])[0]!.report,
  ) as { disagreements: Array<{ number: string; diff: Array<{ op: string; text: string }> }> };
  assert.equal(src.disagreements[0]!.number, '700.1');
  assert.deepEqual(
    src.disagreements[0]!.diff.filter((s) => s.op !== 'equal'),
    [
      { op: 'delete', text: 'Anything' },
      { op: 'insert', text: 'Nothing' },
    ],
  );
  assert.match(ruleText('2021-06-18', '700.1')!, /^Anything that happens/);
  assert.equal(officialSnapshot(), before);
});

test('--edition attaches to the edition in force on that date and still reports disagreements', async () => {
  const file = join(dir, 'asked.txt');
  writeFileSync(file, readFileSync(seed('004'), 'utf8') + '\n');
  const r = await ingest([file], '2021-01-01');
  const f = r.fragments[0]!;
  assert.equal(f.attachedBy, 'option');
  assert.equal(f.attachedTo, '2020-09-25');
  assert.deepEqual(f.range, { from: '2006-07-15', to: '2007-02-01' });
  assert.ok(f.disagreements > 20, String(f.disagreements));
  assert.match(f.summary, /^attached to 2020-09-25 as asked \(--edition 2021-01-01\)/);
  const file2 = join(dir, 'too-early.txt');
  writeFileSync(file2, readFileSync(seed('004'), 'utf8') + '\n\n');
  const r2 = await ingest([file2], '1990-01-01');
  assert.equal(r2.fragments.length, 0);
  assert.match(r2.rejected[0]!.reason, /--edition 1990-01-01: no cr edition was in force/);
});

test('an unmatched fragment becomes an unofficial edition dated by its file name', async () => {
  const file = join(dir, 'house-rules-2023-05-01.txt');
  writeFileSync(file, '100.1. Bananas are always legal to play.\n100.2. Every player starts with twelve bananas.\n');
  const r = await ingest([file]);
  const f = r.fragments[0]!;
  assert.equal(f.attachedBy, 'unofficial');
  assert.equal(f.attachedTo, '2023-05-01');
  const ed = query<{ official: number; family: string }>('SELECT official, family FROM editions WHERE label = ?', [f.label]);
  assert.deepEqual(ed, [{ official: 0, family: 'cr' }]);
  assert.equal(ruleText('2023-05-01', '100.1', f.label), 'Bananas are always legal to play.');
});

test('bad input: no rules, over 20 MB, broken HTML', async () => {
  const files = () => query<{ n: number }>('SELECT count(*) AS n FROM source_files')[0]!.n;
  const n0 = files();
  const empty = join(dir, 'nothing.html');
  writeFileSync(empty, '<html><body><h1>Welcome</h1><p>Nothing to see here.</p></body></html>');
  const big = join(dir, 'huge.txt');
  writeFileSync(big, '');
  truncateSync(big, 21 * 1024 * 1024);
  const broken = join(dir, 'broken.html');
  writeFileSync(
    broken,
    '<html><body><div class="rules"><ul><li>607.1a An ability printed on an object within another ability that grants that ability to that object is considered to be “printed on” that object for these purposes.<li><b>607.1c An ability printed on an object that fulfills both criteria described in rule 607.1 is linked to itself.<div><span',
  );
  const r = await ingest([empty, big, broken]);
  const reasons = new Map(r.rejected.map((x) => [x.source, x.reason]));
  assert.match(reasons.get(empty) ?? '', /no rules found/);
  assert.match(reasons.get(big) ?? '', /too large: 22020096 bytes \(limit 20971520 bytes\)/);
  assert.equal(reasons.has(broken), false);
  assert.equal(r.fragments.length, 1);
  assert.equal(r.fragments[0]!.path, broken);
  assert.equal(r.fragments[0]!.matched, 2);
  assert.equal(files(), n0 + 1);
});
