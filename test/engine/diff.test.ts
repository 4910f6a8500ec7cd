import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuleText } from '../../src/engine/compareRule.js';
import { diffToJson } from '../../src/engine/diffEditions.js';
import { diffCounts } from '../../src/query/diffCounts.js';
import { wordDiff } from '../../src/engine/wordDiff.js';
import { ruleHistory } from '../../src/engine/history.js';
import { diffFixtures as diffEditions, type FixtureEdition } from './memorySource.js';

const resolver =
  (m: Record<string, number>) =>
  (t: string): number | null =>
    m[t] ?? null;
// copy rule: lineage 7 (706.10 before, 707.10 after); rolling a die: lineage 9 (706.1 after only)
const rb = resolver({ '706.10': 7, '706.1': 5 });
const ra = resolver({ '707.10': 7, '706.1': 9, '707.1': 5 });

test('word diff rebuilds both texts and marks only the changed words', () => {
  const a = 'A copy of a modal spell copies the mode(s). (See rule 706.10.)';
  const b = 'A copy of a modal spell or ability copies the mode(s). (See rule 707.10.)';
  const segs = wordDiff(a, b);
  assert.equal(
    segs
      .filter((s) => s.op !== 'insert')
      .map((s) => s.text)
      .join(''),
    a,
  );
  assert.equal(
    segs
      .filter((s) => s.op !== 'delete')
      .map((s) => s.text)
      .join(''),
    b,
  );
  assert.deepEqual(
    segs.filter((s) => s.op === 'delete').map((s) => s.text),
    ['706.10'],
  );
  assert.deepEqual(
    segs.filter((s) => s.op === 'insert').map((s) => s.text),
    ['or ability ', '707.10'],
  );
});

test('word diff: shared starts and ends split as the whole texts are', () => {
  // the shared start runs into the shorter text's end: the whole texts' split (equal start, inserted end)
  assert.deepEqual(wordDiff('a a', 'a a a'), [
    { op: 'equal', text: 'a a' },
    { op: 'insert', text: ' a' },
  ]);
  // a shared start ending inside one text's whitespace run, and a shared end starting inside a word
  assert.deepEqual(wordDiff('See rule  706.1 now', 'See rule 706.10 now'), [
    { op: 'equal', text: 'See rule' },
    { op: 'delete', text: '  706.1' },
    { op: 'insert', text: ' 706.10' },
    { op: 'equal', text: ' now' },
  ]);
  assert.deepEqual(wordDiff('The player’s turn ends.', 'The player’s next turn ends.'), [
    { op: 'equal', text: 'The player’s ' },
    { op: 'insert', text: 'next ' },
    { op: 'equal', text: 'turn ends.' },
  ]);
});

test('a change of reference numbers only, to the same rule, is a reference update', () => {
  const r = compareRuleText('A copy copies the mode(s). (See rule 706.10.)', 'A copy copies the mode(s). (See rule 707.10.)', rb, ra);
  assert.equal(r.textChange, 'references');
});

test('a reference now pointing at a different rule is substantive', () => {
  const r = compareRuleText('See rule 706.10.', 'See rule 706.1.', rb, ra);
  assert.equal(r.textChange, 'substantive');
  // same number, but 706.1 is now another rule
  const same = compareRuleText('See rule “706.1.”', 'See rule "706.1."', rb, ra);
  assert.equal(same.textChange, 'substantive');
  assert.equal(compareRuleText('See rule 706.10.', 'See rule 707.10, in full.', rb, ra).textChange, 'substantive');
});

test('typography-only changes are "none" and flagged', () => {
  const r = compareRuleText('Your opponent’s “creature”—it', 'Your opponent\'s "creature" -- it', rb, ra);
  assert.deepEqual(r, { textChange: 'none', typography: true });
});

const rule = (number: string, text: string, lineage: number, examples: string[] = []): FixtureEdition['rules'][number] => ({
  number,
  text,
  lineage,
  examples,
});
const ed1 = {
  date: '2021-06-18',
  rules: [
    rule('700.2g', 'A copy copies the mode(s). (See rule 706.10.)', 1),
    rule('706.1', 'Old copy intro.', 5),
    rule('706.10', 'To copy a spell means to put a copy of it onto the stack.', 7, ['An example.']),
    rule('708.1', 'Gone rule.', 8),
  ],
  glossary: [{ term: 'Copy', definition: 'See rule 706.' }],
};
const ed2 = {
  date: '2021-07-23',
  rules: [
    rule('700.2g', 'A copy copies the mode(s). (See rule 707.10.)', 1),
    rule('706.1', 'Roll a die.', 9),
    rule('707.1', 'Old copy intro.', 5),
    rule('707.10', 'To copy a spell means to put a copy of it onto the stack.', 7, ['An example, reworded.']),
  ],
  glossary: [
    { term: 'Copy', definition: 'See rule 707.' },
    { term: 'Die', definition: 'A die.' },
  ],
};

test('diff pairs by lineage: renumbering, reference updates, added and removed rules', () => {
  const d = diffEditions(ed1, ed2);
  const json = diffToJson(d);
  assert.deepEqual(Object.keys(json), ['from', 'to', 'changes', 'glossary', 'examples']);
  assert.deepEqual(json.changes, [
    {
      before: { number: '700.2g', text: ed1.rules[0]!.text },
      after: { number: '700.2g', text: ed2.rules[0]!.text },
      renumbered: false,
      textChange: 'references',
    },
    { before: null, after: { number: '706.1', text: 'Roll a die.' }, renumbered: false, textChange: 'substantive' },
    { before: { number: '706.1', text: 'Old copy intro.' }, after: { number: '707.1', text: 'Old copy intro.' }, renumbered: true, textChange: 'none' },
    { before: { number: '706.10', text: ed1.rules[2]!.text }, after: { number: '707.10', text: ed2.rules[3]!.text }, renumbered: true, textChange: 'none' },
    { before: { number: '708.1', text: 'Gone rule.' }, after: null, renumbered: false, textChange: 'substantive' },
  ]);
  assert.deepEqual(d.renumbering, [
    { from: '706.1', to: '707.1' },
    { from: '706.10', to: '707.10' },
  ]);
  assert.deepEqual(d.counts, { added: 1, removed: 1, renumbered: 2, substantive: 0, references: 1, typography: 0, total: 5 });
  // the edges' counts are the diff's, in their order
  assert.deepEqual(Object.entries(diffCounts(d.changes)), [
    ['added', 1],
    ['removed', 1],
    ['renumbered', 2],
    ['references', 1],
    ['substantive', 0],
  ]);
  assert.equal(d.examples.length, 1);
  assert.deepEqual(
    d.glossary.map((g) => [g.term, g.before, g.after]),
    [
      ['Copy', 'See rule 706.', 'See rule 707.'],
      ['Die', null, 'A die.'],
    ],
  );
  assert.deepEqual(
    diffEditions(ed1, ed2, { section: '707' }).changes.map((c) => c.after?.number),
    ['707.1', '707.10'],
  );
  assert.deepEqual(
    diffEditions(ed1, ed2, { kinds: ['removed'] }).changes.map((c) => c.before?.number),
    ['708.1'],
  );
  // reverse diff
  const rev = diffEditions(ed2, ed1);
  assert.deepEqual(rev.renumbering, [
    { from: '707.1', to: '706.1' },
    { from: '707.10', to: '706.10' },
  ]);
  assert.equal(rev.changes.find((c) => c.after?.number === '700.2g')?.textChange, 'references');
});

test('history follows a lineage across renumbering', () => {
  const h = ruleHistory(
    [
      { date: '2021-07-23', number: '707.10', text: 'B', lineage: 7 },
      { date: '2021-06-18', number: '706.10', text: 'A', lineage: 7 },
      { date: '2021-11-19', number: '707.10', text: 'B', lineage: 7 },
    ],
    ['2021-06-18', '2021-07-23', '2021-11-19'],
  );
  assert.ok(h);
  assert.deepEqual(h.numbers, ['706.10', '707.10']);
  assert.deepEqual(
    h.steps.map((s) => [s.change, s.renumbered, s.previousNumber ?? null]),
    [
      ['added', false, null],
      ['changed', true, '706.10'],
      ['unchanged', false, null],
    ],
  );
});
