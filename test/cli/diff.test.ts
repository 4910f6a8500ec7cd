import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureCli, corpusDb } from './corpusDb.js';

const db = corpusDb();
const cli = (run: (argv: string[]) => Promise<number>, ...argv: string[]) => captureCli(run, db(), argv);
import { run } from '../../src/cli/diff.js';
import { UsageError } from '../../src/cli/UsageError.js';

interface Change {
  before: { number: string; text: string } | null;
  after: { number: string; text: string } | null;
  renumbered: boolean;
  textChange: 'none' | 'typography' | 'references' | 'substantive';
}

test('diff --json: the exact shape, reference update, renumbering, added rules', async () => {
  const r = await cli(run, '2021-06-18', '2021-07-23', '--json');
  assert.equal(r.code, 0);
  const d = JSON.parse(r.out) as { from: string; to: string; changes: Change[] };
  assert.deepEqual(Object.keys(d), ['from', 'to', 'changes', 'glossary', 'examples']);
  assert.equal(d.from, '2021-06-18');
  assert.equal(d.to, '2021-07-23');
  for (const c of d.changes) {
    // (an added rule split off another, or a removed one merged into another, also says which)
    assert.deepEqual(
      Object.keys(c).filter((k) => k !== 'splitFrom' && k !== 'mergedInto'),
      ['before', 'after', 'renumbered', 'textChange'],
    );
    for (const side of [c.before, c.after]) if (side) assert.deepEqual(Object.keys(side), ['number', 'text']);
    assert.ok(c.before !== null || c.after !== null);
    assert.ok(!(c.before && c.after && c.before.number === c.after.number && c.before.text === c.after.text), 'unchanged rules are left out');
  }
  const at = (n: string): Change | undefined => d.changes.find((c) => c.after?.number === n);
  assert.equal(at('700.2g')?.textChange, 'references');
  assert.deepEqual([at('707.10')?.before?.number, at('707.10')?.renumbered, at('707.10')?.textChange], ['706.10', true, 'none']);
  for (const n of ['309', '309.1', '706', '706.1']) assert.equal(at(n)?.before, null, `${n} is added`);
  assert.ok(d.changes.filter((c) => /^707\.\d+$/.test(c.after?.number ?? '') && c.renumbered).length > 10);
});

test('a reverse diff swaps before and after', async () => {
  const r = await cli(run, '2021-07-23', '2021-06-18', '--json');
  const d = JSON.parse(r.out) as { from: string; changes: Change[] };
  assert.equal(d.from, '2021-07-23');
  const copy = d.changes.find((c) => c.before?.number === '707.10');
  assert.equal(copy?.after?.number, '706.10');
  assert.equal(d.changes.find((c) => c.before?.number === '309.1')?.after, null, '309.1 is removed going back');
  assert.equal(d.changes.find((c) => c.after?.number === '700.2g')?.textChange, 'references');
});

test('diff across the Magic 2010 rewrite pairs the copy rule 503.10 → 706.9', async () => {
  const r = await cli(run, '2009-05-01', '2009-07-11', '--json', '--section', '706');
  const d = JSON.parse(r.out) as { changes: Change[] };
  const c = d.changes.find((x) => x.after?.number === '706.9');
  assert.equal(c?.before?.number, '503.10');
  assert.equal(c?.renumbered, true);
});

test('--section, --kind, --renumbering, --markdown and the text summary', async () => {
  const s = JSON.parse((await cli(run, '2021-06-18', '2021-07-23', '--json', '--section', '700')).out) as { changes: Change[] };
  assert.ok(s.changes.length > 0 && s.changes.every((c) => /^700(\.|$)/.test(c.after?.number ?? c.before!.number)));
  const k = JSON.parse((await cli(run, '2021-06-18', '2021-07-23', '--json', '--kind', 'references')).out) as { changes: Change[] };
  assert.ok(k.changes.length > 0 && k.changes.every((c) => c.textChange === 'references'));
  const map = (await cli(run, '2021-06-18', '2021-07-23', '--renumbering')).out.split('\n');
  assert.ok(map.includes('706.10 -> 707.10'));
  const md = (await cli(run, '2021-06-18', '2021-07-23', '--markdown')).out;
  assert.match(md, /^# Comprehensive Rules changes, 2021-06-18 → 2021-07-23/);
  assert.match(md, /## Reference updates[\s\S]*\*\*700\.2g\*\*: 706\.10 → 707\.10/);
  assert.match(md, /706–706\.13 → 707–707\.13/);
  const text = (await cli(run, 'latest', '2021-06-18')).out;
  assert.match(text, /^2021-07-23 -> 2021-06-18: \d+ changed rules/);
});

test('an unknown edition date is a usage error naming it', async () => {
  await assert.rejects(
    cli(run, '1990-01-01', '2021-07-23'),
    (e: unknown) => e instanceof UsageError && /FROM: no cr edition was in force on 1990-01-01: the earliest stored is 2009-05-01/.test(e.message),
  );
  await assert.rejects(cli(run, '2021-06-18', 'yesterday'), (e: unknown) => e instanceof UsageError && /TO: edition "yesterday" is not a date/.test(e.message));
  await assert.rejects(cli(run, '2021-06-18'), UsageError);
});

test('diff --explain: the method and score of each pair, adjacent or far', async () => {
  type Explained = Change & { explain: { method: string; score: number | null; steps?: number } | null };
  const r = await cli(run, '2021-06-18', '2021-07-23', '--json', '--explain');
  const d = JSON.parse(r.out) as { changes: Explained[] };
  const at = (n: string): Explained | undefined => d.changes.find((c) => c.after?.number === n);
  assert.deepEqual(at('707.10')?.explain, { method: 'exact', score: 1 });
  assert.equal(at('700.2g')?.explain?.method, 'references');
  assert.equal(at('706.1')?.explain, null, 'an added rule has no pair to explain');
  for (const c of d.changes) if (c.before && c.after) assert.ok(c.explain && c.explain.score !== null && c.explain.score > 0);
  // the reverse diff reads the same reasons
  const rev = JSON.parse((await cli(run, '2021-07-23', '2021-06-18', '--json', '--explain')).out) as { changes: Explained[] };
  assert.equal(rev.changes.find((c) => c.before?.number === '700.2g')?.explain?.method, 'references');
  const far = JSON.parse((await cli(run, '2009-05-01', '2021-07-23', '--json', '--explain')).out) as { changes: Explained[] };
  const paired = far.changes.find((c) => c.before && c.after);
  assert.deepEqual(paired?.explain, { method: 'lineage', score: null, steps: 3 });
  const text = await cli(run, '2009-05-01', '2009-07-11', '--explain', '--section', '702');
  assert.match(text.out, /why: (similar|context|children|normalized|references|exact|slot|split) \d\.\d\d/);
});
