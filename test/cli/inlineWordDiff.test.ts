import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineWordDiff } from '../../src/cli/inlineWordDiff.js';
import { wordDiff } from '../../src/engine/wordDiff.js';

test('changes are marked inline and long unchanged stretches are elided around them', () => {
  const before = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen. Then the end.';
  const after = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen. Then a new end.';
  assert.equal(inlineWordDiff(wordDiff(before, after), 3), '… fifteen sixteen. Then [-the-]{+a new+} end.');
});

test('short texts are shown whole, and a change in the middle keeps context on both sides', () => {
  assert.equal(inlineWordDiff(wordDiff('a b c', 'a x c')), 'a [-b-]{+x+} c');
  const words = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
  const out = inlineWordDiff(wordDiff(`${words(20, 'p')} old ${words(20, 'q')}`, `${words(20, 'p')} new ${words(20, 'q')}`), 2);
  assert.equal(out, '… p18 p19 [-old-]{+new+} q0 q1 …');
});
