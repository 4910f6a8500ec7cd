import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';

const corpus = resolve(process.cwd(), '../shared/corpus');
const seeds = resolve(process.cwd(), '../shared/seeds');
const bin = resolve(process.cwd(), 'bin/crkb.js');

const EDITION_FILES = [
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
];

let dir: string;
let dbFile: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crkb-identify-'));
  dbFile = join(dir, 'test.db');
  const r = await runIngest({ inputs: EDITION_FILES.map((f) => ({ kind: 'file' as const, location: join(corpus, f) })), dbFile });
  assert.deepEqual(r.rejected, []);
});

after(() => rmSync(dir, { recursive: true, force: true }));

function identify(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, 'identify', '--db', dbFile, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Json {
  family: string;
  total: number;
  best: { from: string; to: string; exact: number; near: number } | null;
  disagreements: Array<{ number: string; status: string }>;
  summary: string;
}

const cases: Array<[string, string, string, number, number]> = [
  ['001_2032b41ab82f9f7f.txt', '2020-09-25', '2021-06-18', 22, 22],
  ['003_444c9430a34e273b.txt', '2021-04-22', '2021-06-18', 24, 24],
  ['004_1a2767f0f6f64d46.txt', '2006-07-15', '2007-02-01', 27, 28],
  // A later edition than any stored: best is the latest stored, 700.2h and newer rules absent.
  ['000_fd7f68269be61ced.txt', '2021-07-23', '2021-07-23', 21, 35],
];

for (const [name, from, to, matched, total] of cases) {
  test(`crkb identify --json ${name} matches ${from} … ${to}`, () => {
    const r = identify(join(seeds, name), '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as Json;
    assert.equal(j.family, 'cr');
    assert.equal(j.total, total);
    assert.deepEqual([j.best?.from, j.best?.to, j.best!.exact + j.best!.near], [from, to, matched]);
  });
}

test('crkb identify prints the range and the disagreements, and stores nothing', () => {
  const count = (): number => {
    const db = openReadOnlyDb(dbFile);
    try {
      return db.prepare('SELECT count(*) FROM source_files').pluck().get() as number;
    } finally {
      db.close();
    }
  };
  const n = count();
  const r = identify(join(seeds, '004_1a2767f0f6f64d46.txt'));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /matches 2006-07-15 … 2007-02-01 on 27 of 28 rules; 1 disagreement/);
  assert.match(r.stdout, /200\.2 differs \(\d+%\): .*\[- http:\/\/gatherer\.wizards\.com\.-\]/);
  assert.equal(count(), n);
});

test('crkb identify on an official file identifies its own edition exactly', () => {
  const r = identify(join(corpus, 'rulesraker/2021-04-19.txt'), '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as Json;
  assert.deepEqual([j.best?.from, j.best?.to, j.best?.exact], ['2021-04-22', '2021-04-22', j.total]);
  assert.equal(j.disagreements.length, 0);
});

test('crkb identify reads a Word document as ingest does, and identifies its edition exactly', () => {
  const r = identify(join(corpus, 'rulesraker-documents/docx/2021-04-19.docx'), '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as Json & { format: string };
  assert.equal(j.format, 'docx');
  assert.deepEqual([j.best?.from, j.best?.to, j.best?.exact], ['2021-04-22', '2021-04-22', j.total]);
  assert.equal(j.disagreements.length, 0);
});

test('crkb identify refuses a file named .docx that is no Word document, in one line naming it', () => {
  const fake = join(dir, 'notes.docx');
  writeFileSync(fake, 'Just some notes, not a Word document.\n');
  const r = identify(fake);
  assert.equal(r.status, 2);
  assert.equal(r.stderr, `crkb identify: ${fake}: not a .docx: it has no Word signature\n`);
});

test('crkb identify refuses a page with no rules and needs exactly one input', () => {
  const r = identify(join(corpus, 'README.md'));
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no rules found/);
  const u = identify();
  assert.equal(u.status, 1);
  assert.match(u.stderr, /exactly one FILE or URL/);
});

test('a database from an older store format is refused (its text hashes would not compare), and so is more ingest into it', async () => {
  const old = join(dir, 'old.db');
  const { copyFileSync } = await import('node:fs');
  const { openWritableDb } = await import('../../src/db/openDb.js');
  copyFileSync(dbFile, old);
  const w = openWritableDb(old);
  w.prepare(`DELETE FROM meta WHERE key = 'format'`).run();
  w.close();
  const r = spawnSync(process.execPath, [bin, 'identify', '--db', old, join(seeds, '001_2032b41ab82f9f7f.txt')], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /written by another version of crkb \(store format 1; this one writes 2\): delete it and ingest again/);
  await assert.rejects(
    runIngest({ inputs: [{ kind: 'file', location: join(corpus, 'rulesraker/2021-11-15.txt') }], dbFile: old }),
    /written by another version of crkb/,
  );
});
