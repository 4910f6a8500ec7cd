import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureCli, corpusDb } from './corpusDb.js';

const db = corpusDb();
const cli = (run: (argv: string[]) => Promise<number>, ...argv: string[]) => captureCli(run, db(), argv);
import { run } from '../../src/cli/history.js';

interface Step {
  date: string;
  number: string;
  change: string;
  renumbered: boolean;
  previousNumber?: string;
}

test('history 707.10 goes back through 706.10 and the 2009 rewrite to its first appearance', async () => {
  const r = await cli(run, '707.10', '--json');
  assert.equal(r.code, 0);
  const h = JSON.parse(r.out) as { numbers: string[]; first: string; steps: Step[] };
  assert.deepEqual(h.numbers, ['503.10', '706.9', '706.10', '707.10']);
  assert.equal(h.first, '2009-05-01');
  assert.equal(h.steps[0]!.change, 'added');
  const last = h.steps[h.steps.length - 1]!;
  assert.deepEqual([last.date, last.number, last.previousNumber, last.renumbered], ['2021-07-23', '707.10', '706.10', true]);
  const text = (await cli(run, '707.10')).out;
  assert.match(text, /numbered 503\.10 → 706\.9 → 706\.10 → 707\.10/);
});

test('NUMBER is read in --edition: 706.2 of 2021-06-18 is a copy rule, of 2021-07-23 a dice rule', async () => {
  const a = JSON.parse((await cli(run, '706.2', '--edition', '2021-06-18', '--json')).out) as { numbers: string[] };
  assert.ok(a.numbers.includes('707.2'));
  const b = JSON.parse((await cli(run, '706.2', '--edition', '2021-07-23', '--json')).out) as { numbers: string[]; first: string };
  assert.deepEqual(b.numbers, ['706.2']);
  assert.equal(b.first, '2021-07-23');
  // 706.10 is not in 2021-07-23 (Rolling a Die is shorter): the last edition that had it is followed
  const c = await cli(run, '706.10', '--edition', '2021-07-23', '--json');
  assert.match(c.err, /706\.10 is not in the 2021-07-23 edition; following the 706\.10 of 2021-06-18/);
  assert.ok((JSON.parse(c.out) as { numbers: string[] }).numbers.includes('707.10'));
});

test('a number that never existed: exit 1 with the nearest numbers', async () => {
  const r = await cli(run, '707.99');
  assert.equal(r.code, 1);
  assert.match(r.err, /no rule 707\.99 in any stored edition; nearest: .*707\.\d+/);
  assert.equal(r.out, '');
});

test('history --term follows a glossary term; reference-only updates are named', async () => {
  const r = await cli(run, '--term', 'dies', '--json');
  assert.equal(r.code, 0);
  const h = JSON.parse(r.out) as { terms: string[]; first: string; steps: Array<{ date: string; change: string; textChange?: string }> };
  assert.deepEqual(h.terms, ['Dies']);
  assert.equal(h.first, '2021-06-18');
  assert.ok(h.steps.length >= 2);
  const text = await cli(run, '--term', 'Dies');
  assert.match(text.out, /^Dies \(glossary\): in \d+ editions/);
  const missing = await cli(run, '--term', 'no such term');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no glossary term "no such term"/);
  await assert.rejects(cli(run, '702.19', '--term', 'dies'), /--term replaces NUMBER/);
});
