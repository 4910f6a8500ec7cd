import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignEditions } from '../../src/engine/align.js';
import { chooseMatching } from '../../src/engine/align/chooseMatching.js';
import type { Alignment } from '../../src/engine/align.js';
import type { ParsedDocument } from '../../src/core/types.js';
import { loadEdition } from './corpus.js';

// The restructuring patterns of issue 12, each on the corpus transition it was found in.

interface Pairing {
  al: Alignment;
  /** The `before` number an `after` number continues, or null. */
  from(after: string): string | null;
  /** The `after` number a `before` number continues as, or null. */
  to(before: string): string | null;
}

function align(beforeFile: string, afterFile: string): Pairing {
  const b: ParsedDocument = loadEdition(beforeFile);
  const a: ParsedDocument = loadEdition(afterFile);
  const al = alignEditions(b.rules, a.rules);
  const ai = new Map(a.rules.map((r, i) => [r.number, i]));
  const bi = new Map(b.rules.map((r, j) => [r.number, j]));
  return {
    al,
    from: (n) => {
      const j = al.afterToBefore[ai.get(n)!]!;
      return j === -1 ? null : b.rules[j]!.number;
    },
    to: (n) => {
      const i = al.beforeToAfter[bi.get(n)!]!;
      return i === -1 ? null : a.rules[i]!.number;
    },
  };
}

test('1. a deleted rule is not absorbed by an unrelated new rule sharing boilerplate (2009-07-11 → 2009-09-04)', () => {
  const p = align('rulesraker/2009-07-11.txt', 'mtg-cr/CR-2009-09-04.txt');
  // Prowl's last-known-information subrule was deleted; Deathtouch's 702.2d is new
  assert.equal(p.from('702.2d'), null);
  assert.equal(p.to('702.73b'), null);
});

test('2. ordinal boilerplate stays in its own list (2016-08-26 → 2016-09-30)', () => {
  const p = align('rulesraker/2016-08-26.txt', 'mtg-cr/CR-2016-09-30.txt');
  // the draw step's priority step is now its second; the combat damage step's "Fourth" is its "Third"
  assert.equal(p.from('504.2'), '504.3');
  assert.equal(p.from('510.3'), '510.4');
});

test('3. a split continues as the fragment keeping the old lead text (2005-02-01 → 2005-08-01)', () => {
  const p = align('mtg-cr/CR-2005-02-01.txt', 'mtg-cr/CR-2005-08-01.txt');
  assert.equal(p.from('401.1'), '401.1');
  assert.equal(p.from('401.1a'), null);
  const split = p.al.splits.find((s) => s.after.length > 1 && p.al.beforeToAfter[s.before] === s.after[0]);
  assert.ok(split, 'the split is still recorded');
});

test('4. a heading follows its children, not one identical short title (2003-03-15 → 2003-07-01)', () => {
  const p = align('mtg-cr/CR-2003-03-15.txt', 'rulesraker/2003-07-01.txt');
  assert.equal(p.from('401'), '401');
  assert.equal(p.from('213'), '213');
  // and a title still wins over a rule that took over the old heading's children
  assert.equal(p.from('308'), '308');
});

test('5. numbers in the text count; "rule 613.6" masks whole (2020-01-24 → 2020-04-17)', () => {
  const p = align('mtg-cr/CR-2020-01-22.txt', 'mtg-cr/CR-2020-04-17.txt');
  assert.equal(p.from('613.4'), '613.3');
  assert.notEqual(p.from('613.2'), '613.3');
});

test('6. the one reworded rule keeping its number between aligned neighbours continues (2007-02-01 → 2007-05-01)', () => {
  const p = align('mtg-cr/CR-2007-02-01.txt', 'mtg-cr/CR-2007-05-01.txt');
  assert.equal(p.from('402.8a'), '402.8a');
});

test('7. candidates are chosen together, not greedily (2003-03-15 → 2003-07-01)', () => {
  const p = align('mtg-cr/CR-2003-03-15.txt', 'rulesraker/2003-07-01.txt');
  // the dependency rule keeps its text one letter down; the timestamp rule after it is new
  assert.equal(p.from('418.5d'), '418.5c');
  assert.equal(p.from('418.5e'), null);
});

test('chooseMatching prefers two good pairs to one slightly better pair that blocks both', () => {
  // greedy would take (0, 0) and leave 1 unpaired
  const m = chooseMatching([
    [0, 0, 0.95],
    [0, 1, 0.9],
    [1, 0, 0.9],
  ]);
  assert.deepEqual(m.map(([i, j]) => [i, j]).sort(), [
    [0, 1],
    [1, 0],
  ]);
  // but one strong pair outweighs two weak ones
  const w = chooseMatching([
    [0, 0, 0.95],
    [0, 1, 0.45],
    [1, 0, 0.45],
  ]);
  assert.deepEqual(
    w.map(([i, j]) => [i, j]),
    [[0, 0]],
  );
});
