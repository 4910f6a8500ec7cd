import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeRenumbering } from '../../src/query/summarizeRenumbering.js';

const pairs = (s: string) =>
  s.split(', ').map((p) => {
    const [from, to] = p.split(' ') as [string, string];
    return { from, to };
  });

test('runs that moved alike collapse: a section, rule numbers within a section, letters within a rule', () => {
  assert.deepEqual(
    summarizeRenumbering(
      pairs('706 707, 706.1 707.1, 706.1a 707.1a, 702.12 702.13, 702.12a 702.13a, 702.13 702.14, 603.2e 603.2f, 603.2f 603.2g, 603.2g 603.2h'),
    ),
    [
      '706–706.1a → 707–707.1a (section 706 is now 707, 3 rules)',
      '702.12–702.13 → 702.13–702.14 (3 rules renumbered within section 702)',
      '603.2e–g → 603.2f–h (3 subrules relettered)',
    ],
  );
});

test('letters skip l and o; short or mixed runs stay one line per rule', () => {
  // k -> m, m -> n, n -> p is one step each in the rules' alphabet
  assert.deepEqual(summarizeRenumbering(pairs('100.1k 100.1m, 100.1m 100.1n, 100.1n 100.1p')), ['100.1k–n → 100.1m–p (3 subrules relettered)']);
  assert.deepEqual(summarizeRenumbering(pairs('117.8c 117.8d, 117.8d 117.8e, 607.3 607.4')), ['117.8c → 117.8d', '117.8d → 117.8e', '607.3 → 607.4']);
  assert.deepEqual(summarizeRenumbering(pairs('702.1 702.2, 702.2a 702.3b, 702.3 702.4')), ['702.1 → 702.2', '702.2a → 702.3b', '702.3 → 702.4']);
});
