import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { buildPolicyDb } from '../support/policyFixture.js';

// crkb editions, export and search take every family, as rule, diff and history do; one reading of --family for all.
// (built at the top level: its temporary folder lasts as long as the file's tests)
const { db } = await buildPolicyDb();

function crkb(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/crkb.js', ...args, '--db', db], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('crkb editions lists a tournament document’s editions, with sections and no glossary', () => {
  const json = crkb('editions', '--family', 'ipg', '--json');
  assert.equal(json.status, 0, json.stderr);
  const list = JSON.parse(json.stdout) as Array<{ family: string; effectiveDate: string; rules: number }>;
  assert.deepEqual(
    list.map((e) => [e.family, e.effectiveDate]),
    [
      ['ipg', '2020-09-25'],
      ['ipg', '2021-02-05'],
    ],
  );
  const text = crkb('editions', '--family', 'JAR');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^2014-09-26 +\d+ sections {2}1 file\(s\)/m);
  assert.doesNotMatch(text.stdout, /glossary/);
  assert.match(text.stdout, /^2 editions$/m);
});

test('crkb export prints an MTR edition: its sections, titles first', () => {
  const r = crkb('export', '--family', 'mtr', '--edition', 'latest');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { effectiveDate: string; rules: Array<{ number: string; parent: string | null; text: string }> };
  assert.equal(out.effectiveDate, '2021-07-23');
  const shortcuts = out.rules.find((u) => u.number === '4.2')!;
  assert.equal(shortcuts.parent, '4');
  assert.match(shortcuts.text, /^Tournament Shortcuts\n/);
});

test('crkb search reads one edition of the family asked for', () => {
  const r = crkb('search', 'shortcut', '--family', 'mtr', '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { edition: string; hits: Array<{ number: string }> };
  assert.equal(out.edition, '2021-07-23');
  assert.deepEqual(
    out.hits.map((h) => h.number),
    ['4.2'],
  );
  const ipg = crkb('search', 'missed trigger', '--family', 'ipg', '--edition', '2020-09-25');
  assert.equal(ipg.status, 0, ipg.stderr);
  assert.match(ipg.stdout, /^2\.1 /m);
  assert.match(ipg.stdout, /in the 2020-09-25 edition$/m);
});

test('a family no command knows is a usage error naming --family, the same for every command', () => {
  for (const cmd of [['editions'], ['export', '--edition', 'latest'], ['search', 'x'], ['diff', 'a', 'b'], ['history', '2.1'], ['rule', '2.1']]) {
    const r = crkb(...cmd, '--family', 'tr');
    assert.equal(r.status, 1, cmd[0]);
    assert.match(r.stderr, /--family must be cr, rulings, mtr, ipg, jar, not "tr"/, cmd[0]);
    assert.match(r.stderr, /^Usage: crkb /m, cmd[0]);
  }
});
