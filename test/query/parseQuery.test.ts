import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareNumbers } from '../../src/core/ruleNumber.js';
import { closestTerms, editDistance, nearestNumbers } from '../../src/core/suggest.js';
import { capLines } from '../../src/query/chatText.js';
import { parseQuery, topicWords } from '../../src/query/parseQuery.js';

test('numbers with and without prefixes', () => {
  for (const q of ['702.19b', 'CR 702.19b', 'cr702.19b', 'rule 702.19b', '702.19B', ' 702.19b. ']) {
    assert.deepEqual(parseQuery(q), { kind: 'number', number: '702.19b' }, q);
  }
  assert.deepEqual(parseQuery('rule 702.19'), { kind: 'number', number: '702.19' });
  assert.deepEqual(parseQuery('702'), { kind: 'number', number: '702' });
});

test('ranges with hyphen, en dash and full numbers', () => {
  assert.deepEqual(parseQuery('601.2a-h'), { kind: 'range', from: '601.2a', to: '601.2h' });
  assert.deepEqual(parseQuery('601.2a–h'), { kind: 'range', from: '601.2a', to: '601.2h' });
  assert.deepEqual(parseQuery('rules 601.2a–601.2h'), { kind: 'range', from: '601.2a', to: '601.2h' });
  assert.deepEqual(parseQuery('509.1-3'), { kind: 'range', from: '509.1', to: '509.3' });
  assert.equal(parseQuery('601.2-h').kind, 'invalid');
});

test('terms and invalid input', () => {
  assert.deepEqual(parseQuery('Trample'), { kind: 'term', term: 'Trample' });
  assert.deepEqual(parseQuery('"first strike"'), { kind: 'term', term: 'first strike' });
  assert.equal(parseQuery('').kind, 'invalid');
  assert.equal(parseQuery('((**))').kind, 'invalid');
  assert.equal(parseQuery('x'.repeat(101)).kind, 'invalid');
});

test('number order knows 102.9 < 102.10 and skipped letters', () => {
  const sorted = ['704.5m', '102.10', '704.5k', '102.9', '102', '702.1aa', '702.1z'].sort(compareNumbers);
  assert.deepEqual(sorted, ['102', '102.9', '102.10', '702.1z', '702.1aa', '704.5k', '704.5m']);
});

test('Damerau-Levenshtein suggestions', () => {
  assert.equal(editDistance('devotoin', 'devotion'), 1);
  assert.equal(editDistance('trample', 'trample'), 0);
  assert.equal(editDistance('abc', 'xyz'), 3);
  const s = closestTerms('devotoin', ['Deathtouch', 'Devotion', 'Devour', 'Trample'], 5, 2);
  assert.equal(s[0]?.value, 'Devotion');
  assert.ok(!s.some((x) => x.value === 'Trample'));
  assert.deepEqual(nearestNumbers('702.91', ['702.1', '702.19', '702.19a', '704.5']).slice(0, 1), ['702.19']);
});

test('capLines cuts at a line boundary and points to the rest', () => {
  const lines = Array.from({ length: 50 }, (_, i) => `line ${i} ${'x'.repeat(60)}`);
  const out = capLines(lines, 2000, '… the rest: http://x/full');
  assert.ok(out.length <= 2000);
  const outLines = out.split('\n');
  assert.equal(outLines.at(-1), '… the rest: http://x/full');
  for (const l of outLines.slice(0, -1)) assert.ok(lines.includes(l));
  assert.equal(capLines(['short'], 2000, 'more'), 'short');
  const huge = capLines(['word '.repeat(1000)], 2000, 'more');
  assert.ok(huge.length <= 2000 && huge.endsWith('…\nmore'));
});

test('questions around a term or number, and one example of a rule', () => {
  assert.deepEqual(parseQuery('define dies'), { kind: 'term', term: 'dies' });
  assert.deepEqual(parseQuery('What is a token?'), { kind: 'term', term: 'token' });
  assert.deepEqual(parseQuery("what's the stack"), { kind: 'term', term: 'stack' });
  assert.deepEqual(parseQuery('what does trample mean?'), { kind: 'term', term: 'trample' });
  assert.deepEqual(parseQuery('what is 702.19b'), { kind: 'number', number: '702.19b' });
  assert.deepEqual(parseQuery('702.19b ex 2'), { kind: 'example', number: '702.19b', index: 2 });
  assert.deepEqual(parseQuery('rule 702.19b example 1'), { kind: 'example', number: '702.19b', index: 1 });
  assert.equal(parseQuery('702.19b ex 0').kind, 'invalid');
  // words that merely start like a question stay terms
  assert.deepEqual(parseQuery('whatever'), { kind: 'term', term: 'whatever' });
});

test('pasted numbers, editions anywhere in the query, question words dropped', () => {
  for (const q of ['!cr 702.19b', '?cr 702.19b', '702,19b', '702.19b)', '(702.19b)', 'CR: 702.19b', 'cr#702.19b', '702 . 19b', 'what does 702.19b say']) {
    assert.deepEqual(parseQuery(q), { kind: 'number', number: '702.19b' }, q);
  }
  const codes = new Set(['AFR', 'MH2', 'KHM', 'ONE', '2010-01-01', '2005-01-01', '2021-07-01']);
  const names = (arg: string): boolean => codes.has(arg.toUpperCase());
  assert.deepEqual(parseQuery('702.19b in 2010', names), { kind: 'number', number: '702.19b', edition: '2010-01-01' });
  assert.deepEqual(parseQuery('502.9b (2005)', names), { kind: 'number', number: '502.9b', edition: '2005-01-01' });
  assert.deepEqual(parseQuery('702.19b on 2021-07-01', names), { kind: 'number', number: '702.19b', edition: '2021-07-01' });
  assert.deepEqual(parseQuery('trample in MH2', names), { kind: 'term', term: 'trample', edition: 'MH2' });
  assert.deepEqual(parseQuery('ward in khm', names), { kind: 'term', term: 'ward', edition: 'khm' });
  assert.deepEqual(parseQuery('AFR 702.19c', names), { kind: 'number', number: '702.19c', edition: 'AFR' });
  // a set code that is an everyday word counts only in capitals; an unknown code stays a word
  assert.deepEqual(parseQuery('tokens in one zone', names), { kind: 'term', term: 'tokens in one zone' });
  assert.deepEqual(parseQuery('trample in XYZ', names), { kind: 'term', term: 'trample in XYZ' });
  assert.deepEqual(topicWords('how do the layers work?'), ['layers']);
  assert.deepEqual(topicWords('does deathtouch work with trample'), ['deathtouch', 'trample']);
});
