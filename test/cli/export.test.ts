import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../support/tempDir.js';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const corpus = resolve(process.cwd(), '../shared/corpus');
const dir = tempDir('crkb-cli-');
const db = join(dir, 'x.db');

function crkb(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/crkb.js', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(() => {
  const r = crkb('ingest', '--db', db, join(corpus, 'rulesraker/2021-06-09.txt'), join(corpus, 'mtg-cr/CR-1999-11-01.txt'));
  assert.equal(r.status, 0, r.stderr + r.stdout);
});

test('export prints one edition in exactly the documented shape', () => {
  const r = crkb('export', '--edition', '2021-07-01', '--db', db);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as {
    effectiveDate: string;
    rules: Array<{ number: string; parent: string | null; text: string; examples: string[] }>;
    glossary: Array<{ term: string; definition: string }>;
  };
  assert.deepEqual(Object.keys(out), ['effectiveDate', 'rules', 'glossary']);
  // 2021-07-01 is not an effective date: the edition in force that day.
  assert.equal(out.effectiveDate, '2021-06-18');
  assert.deepEqual(Object.keys(out.rules[0]!), ['number', 'parent', 'text', 'examples']);
  assert.deepEqual(out.rules[0], { number: '100', parent: null, text: 'General', examples: [] });
  const r1001 = out.rules.find((x) => x.number === '100.1')!;
  assert.equal(r1001.parent, '100');
  assert.match(r1001.text, /^These Magic rules apply to any Magic game with two or more players/);
  const r1012 = out.rules.find((x) => x.number === '101.2')!;
  assert.deepEqual(r1012.examples, [
    'If one effect reads “You may play an additional land this turn” and another reads “You can’t play lands this turn,” the effect that precludes you from playing lands wins.',
  ]);
  assert.ok(out.rules.every((x) => !x.number.endsWith('.')));
  const i = out.rules.findIndex((x) => x.number === '704.5k');
  assert.equal(out.rules[i + 1]!.number, '704.5m');
  assert.ok(out.glossary.some((g) => g.term === 'Trample' && /See rule 702\.19/.test(g.definition)));
});

test('export of the 1999 edition and of "latest"', () => {
  const old = JSON.parse(crkb('export', '--edition', '1999-12-31', '--db', db).stdout) as {
    effectiveDate: string;
    rules: Array<{ number: string; text: string }>;
  };
  assert.equal(old.effectiveDate, '1999-11-01');
  assert.ok(old.rules.length > 300);
  const latest = JSON.parse(crkb('export', '--edition', 'latest', '--db', db).stdout) as { effectiveDate: string };
  assert.equal(latest.effectiveDate, '2021-06-18');
});

test('editions lists what is stored', () => {
  const r = crkb('editions', '--db', db, '--json');
  assert.equal(r.status, 0);
  assert.deepEqual(
    (JSON.parse(r.stdout) as Array<{ effectiveDate: string }>).map((e) => e.effectiveDate),
    ['1999-11-01', '2021-06-18'],
  );
});

test('user mistakes print usage and exit 1; rejected inputs exit 2', () => {
  const early = crkb('export', '--edition', '1990-01-01', '--db', db);
  assert.equal(early.status, 1);
  assert.match(early.stderr, /no cr edition was in force on 1990-01-01: the earliest stored is 1999-11-01/);
  assert.match(early.stderr, /Usage: crkb export/);
  assert.equal(crkb('export', '--db', db).status, 1);
  assert.match(crkb('export', '--edition', 'yesterday', '--db', db).stderr, /not a date/);
  assert.equal(crkb('export', '--edition', 'latest', '--db', join(dir, 'nope.db')).status, 1);
  assert.equal(crkb('frobnicate').status, 1);
  assert.match(crkb('ingest', '--bogus').stderr, /Unknown option '--bogus'/);
  const empty = join(dir, 'empty.txt');
  writeFileSync(empty, '');
  const r = crkb('ingest', '--db', db, empty);
  assert.equal(r.status, 2);
  assert.match(r.stdout, /rejected: .*empty\.txt: empty file/);
});
