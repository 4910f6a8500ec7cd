import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closestTerms, editDistance } from '../../src/core/suggest.js';

/** The whole optimal-string-alignment table, every cell computed: the oracle of the banded one. */
function fullTable(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

test('editDistance equals the full table, capped at max + 1, for every pair of short strings over a small alphabet', () => {
  // a fixed pseudo-random sequence: the same pairs on every run
  let seed = 12345;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const word = (): string => Array.from({ length: next(11) }, () => 'abcd'[next(4)]).join('');
  for (let k = 0; k < 20000; k++) {
    const a = word();
    const b = word();
    const max = next(5);
    assert.equal(editDistance(a, b, max), Math.min(fullTable(a, b), max + 1), `${a} / ${b} / max ${max}`);
  }
  // longer than the reused rows, and a transposition
  const long = 'x'.repeat(70);
  assert.equal(editDistance(long, `${long}yz`, 3), 2);
  assert.equal(editDistance('trample', 'tarmple', 2), 1);
});

test('closestTerms ranks by distance, counts a completion as 1, and skips candidates too long or short to be close', () => {
  assert.deepEqual(
    closestTerms('trampel', ['trample', 'tramples', 'temple', 'trample', 'Trampled', 'a', 'trampelling'], 5, 2).map((s) => [s.value, s.distance]),
    [
      ['trample', 1],
      ['trampelling', 1],
      ['Trampled', 2],
      ['tramples', 2],
    ],
  );
});
