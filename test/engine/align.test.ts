import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignEditions, TokenCache } from '../../src/engine/align.js';
import type { AlignRule } from '../../src/engine/align.js';

const parentOf = (n: string): string | null => {
  if (/^\d{3}$/.test(n)) return null;
  if (/^\d{3}\.\d+$/.test(n)) return n.slice(0, 3);
  return n.replace(/[a-z]$/, '');
};
const kindOf = (n: string): string => (/^\d{3}$/.test(n) ? 'section' : /[a-z]$/.test(n) ? 'subrule' : 'rule');
const ed = (rows: Array<[string, string]>): AlignRule[] =>
  rows.map(([number, text]) => ({ number, text, parent: parentOf(number), kind: kindOf(number), examples: [] }));
const pairsOf = (b: AlignRule[], a: AlignRule[]): Map<string, string | null> => {
  const al = alignEditions(b, a);
  return new Map(a.map((r, i) => [r.number, al.afterToBefore[i] === -1 ? null : b[al.afterToBefore[i]!]!.number]));
};

const copyBlock: Array<[string, string]> = [
  ['706', 'Copying Objects'],
  ['706.1', 'Some objects become or turn another object into a “copy” of a spell, permanent, or card.'],
  ['706.2', 'When copying an object, the copy acquires the copiable values of the original object’s characteristics.'],
  ['706.10', 'To copy a spell, activated ability, or triggered ability means to put a copy of it onto the stack.'],
  ['706.10a', 'If a copy of a spell is in a zone other than the stack, it ceases to exist.'],
];
const before = ed([
  ['700', 'General'],
  ['700.1', 'Anything that happens in a game is an event.'],
  ['700.2g', 'A copy of a modal spell or ability copies the mode(s) chosen for it. (See rule 706.10.)'],
  ...copyBlock,
  ['707', 'Face-Down Spells and Permanents'],
  ['707.1', 'Two cards have the ability to be turned face down; morph and disguise manifest them.'],
]);
const after = ed([
  ['700', 'General'],
  ['700.1', 'Anything that happens in a game is an event.'],
  ['700.2g', 'A copy of a modal spell or ability copies the mode(s) chosen for it. (See rule 707.10.)'],
  ['706', 'Rolling a Die'],
  ['706.1', 'An effect that instructs a player to roll a die will specify what kind of die to roll.'],
  ['706.2', 'After the roll, the number indicated on the top face of the die is the result.'],
  ...copyBlock.map(([n, t]): [string, string] => [n.replace(/^706/, '707'), t]),
  ['708', 'Face-Down Spells and Permanents'],
  ['708.1', 'Two cards have the ability to be turned face down; morph and disguise manifest them.'],
]);

test('an inserted section shifts the following block without breaking lineage', () => {
  const p = pairsOf(before, after);
  assert.equal(p.get('707'), '706');
  assert.equal(p.get('707.1'), '706.1');
  assert.equal(p.get('707.2'), '706.2');
  assert.equal(p.get('707.10'), '706.10');
  assert.equal(p.get('707.10a'), '706.10a');
  assert.equal(p.get('708.1'), '707.1');
  assert.equal(p.get('700.2g'), '700.2g');
  // the new 706 block is new, even though its numbers existed before
  assert.equal(p.get('706'), null);
  assert.equal(p.get('706.1'), null);
  assert.equal(p.get('706.2'), null);
});

test('boilerplate keyword rules are never cross-paired', () => {
  // boilerplate is what many keywords share: a few unchanged ones make it so
  const common: Array<[string, string]> = ['Exalted', 'Provoke', 'Rampage', 'Soulshift', 'Ninjutsu', 'Echo'].flatMap((k, n): Array<[string, string]> => [
    [`702.${30 + n}`, k],
    [`702.${30 + n}a`, `${k} is a ${n % 2 ? 'triggered' : 'static'} ability.`],
  ]);
  const b = ed([
    ['702', 'Keyword Abilities'],
    ['702.22', 'Flanking'],
    ['702.22a', 'Flanking is a triggered ability.'],
    ['702.23', 'Phasing'],
    ['702.23a', 'Phasing is a static ability that modifies the rules of the untap step.'],
    ...common,
  ]);
  const a = ed([
    ['702', 'Keyword Abilities'],
    ['702.22', 'Bushido'],
    ['702.22a', 'Bushido is a triggered ability.'],
    ['702.23', 'Phasing'],
    ['702.23a', 'Phasing is a static ability that modifies the rules of the untap step.'],
    ['702.24', 'Shadow'],
    ['702.24a', 'Shadow is a static ability.'],
    ...common,
  ]);
  const p = pairsOf(b, a);
  assert.equal(p.get('702.22'), null);
  assert.equal(p.get('702.22a'), null);
  assert.equal(p.get('702.24a'), null);
  assert.equal(p.get('702.23a'), '702.23a');
});

test('rewording in place and a split are detected', () => {
  const b = ed([
    ['500', 'General'],
    ['500.1', 'A turn consists of five phases, in this order: beginning, precombat main, combat, postcombat main, and ending.'],
    [
      '500.2',
      'A phase or step in which players receive priority ends when the stack is empty and all players pass in succession. Simply having the stack become empty does not cause such a phase or step to end.',
    ],
    ['500.3', 'A step in which no players receive priority ends when all specified actions that take place during that step are completed.'],
  ]);
  const a = ed([
    ['500', 'General'],
    ['500.1', 'A turn consists of five phases, in this order: beginning, precombat main, combat, postcombat main, and end.'],
    ['500.2', 'A phase or step in which players receive priority ends when the stack is empty and all players pass in succession.'],
    ['500.2a', 'Simply having the stack become empty does not cause such a phase or step to end.'],
    ['500.3', 'A step in which no players receive priority ends when all specified actions that take place during that step are completed.'],
  ]);
  const al = alignEditions(b, a);
  assert.equal(al.afterToBefore[1], 1);
  assert.equal(al.afterToBefore[2], 2);
  assert.equal(al.afterToBefore[3], -1);
  assert.deepEqual(al.splits, [{ before: 2, after: [2, 3] }]);
});

test('a rule is followed along a chain through renumbering; a new rule continues nothing', () => {
  const e1 = ed([
    ['100', 'General'],
    ['100.1', 'These Magic rules apply to any Magic game with two or more players.'],
  ]);
  const e2 = ed([
    ['100', 'General'],
    ['100.1', 'A new first rule about deck construction and sideboards.'],
    ['100.2', 'These Magic rules apply to any Magic game with two or more players.'],
  ]);
  const e3 = ed([
    ['101', 'General'],
    ['101.1', 'A new first rule about deck construction and sideboards.'],
    ['101.2', 'These Magic rules apply to any Magic game with two or more players.'],
  ]);
  const als = [alignEditions(e1, e2), alignEditions(e2, e3)];
  // 100.1 → 100.2 → 101.2
  assert.equal(als[0]!.afterToBefore[2], 1);
  assert.equal(als[1]!.afterToBefore[2], 2);
  // the new 100.1 continues nothing, then becomes 101.1
  assert.equal(als[0]!.afterToBefore[1], -1);
  assert.equal(als[1]!.afterToBefore[1], 1);
});

test('a TokenCache shared along a chain gives the alignments made without one; it is read only for the very same text', () => {
  const ids = new Map<string, number>();
  const hashed = (rows: Array<[string, string]>): AlignRule[] =>
    ed(rows).map((r) => {
      if (!ids.has(r.text)) ids.set(r.text, ids.size + 1);
      return { ...r, h: ids.get(r.text)!, normH: ids.get(r.text)! };
    });
  const old = 'A turn consists of five phases, in this order: beginning, precombat main, combat, postcombat main, and ending.';
  const rows = (last: string): Array<[string, string]> => [
    ['500', 'General'],
    ['500.1', `A turn consists of five phases, in this order: beginning, precombat main, combat, postcombat main, and ${last}.`],
    ['500.2', 'A step in which no players receive priority ends when all specified actions that take place during that step are completed.'],
  ];
  const plain = alignEditions(hashed(rows('ending')), hashed(rows('end')));
  assert.deepEqual(plain.method, ['exact', 'similar', 'exact']);
  const cache = new TokenCache();
  // words kept under 500.1's hash for another text are not taken
  cache.set(ids.get(old)!, 'Rolling a die', new Map([['zzz', 1]]));
  const first = alignEditions(hashed(rows('ending')), hashed(rows('end')), { tokens: cache });
  cache.rotate();
  // the next pair finds the words of the last pair's texts (new rules arrays: nothing kept beside them)
  const again = alignEditions(hashed(rows('ending')), hashed(rows('end')), { tokens: cache });
  for (const al of [first, again]) {
    assert.deepEqual([...al.afterToBefore], [...plain.afterToBefore]);
    assert.deepEqual(al.method, plain.method);
    assert.deepEqual([...al.score], [...plain.score]);
  }
  // and they are read from it: words planted for the very text change the pair
  const planted = new TokenCache();
  planted.set(ids.get(old)!, old, new Map([['zzz', 1]]));
  assert.notDeepEqual(alignEditions(hashed(rows('ending')), hashed(rows('end')), { tokens: planted }).method, plain.method);
});
