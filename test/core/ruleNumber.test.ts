import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractReferences } from '../../src/core/references.js';
import {
  compareNumbers,
  PREFIX_RE,
  RULINGS_NUMBER_RE,
  letterIndex,
  lettersAt,
  normalizeNumber,
  numberDepth,
  numberLevel,
  numberOfShortAnchor,
  parentNumber,
  splitNumber,
} from '../../src/core/ruleNumber.js';

test('a typed number: prefixes, case, a trailing dot and spaces are tolerated; two subrule letters are a number', () => {
  for (const [typed, number] of [
    ['702.19b', '702.19b'],
    [' 702.19B. ', '702.19b'],
    ['CR 702.19b', '702.19b'],
    ['cr702.19b', '702.19b'],
    ['rule 702.19', '702.19'],
    ['Comp. Rules 100', '100'],
    ['§ 704.5aa', '704.5aa'],
    ['#7', '7'],
    ['702.', '702'],
  ] as const) {
    assert.equal(normalizeNumber(typed), number, typed);
  }
  for (const bad of ['', 'abc', '702.19bbb', '7021', '702.1234', '702..19', 'rule', '702.19b ex 2', '601.2a-h']) assert.equal(normalizeNumber(bad), null, bad);
});

test('levels, parents and parts of a number', () => {
  assert.deepEqual(['7', '702', '702.19', '702.19b', '704.5aa', 'E.13'].map(numberLevel), ['part', 'section', 'rule', 'subrule', 'subrule', null]);
  assert.deepEqual(['702.19b', '704.5aa', '702.19', '702', '7'].map(parentNumber), ['702.19', '704.5', '702', '7', null]);
  assert.deepEqual(['7', '702', '702.19', '702.19b', '704.5aa'].map(numberDepth), [1, 1, 2, 3, 3]);
  assert.deepEqual(splitNumber('704.5aa'), { section: '704', rule: '5', letters: 'aa' });
  assert.deepEqual(splitNumber('702'), { section: '702', rule: undefined, letters: '' });
  assert.equal(splitNumber('E.13'), null);
  assert.ok(RULINGS_NUMBER_RE.test('E.13.Ruling.3') && RULINGS_NUMBER_RE.test('E.13') && !RULINGS_NUMBER_RE.test('702.19b'));
  assert.equal('rule 702'.replace(PREFIX_RE, ''), '702');
  assert.equal('702'.replace(PREFIX_RE, ''), '702');
});

test('subrule letters skip l and o, then go on with two letters in document order', () => {
  assert.equal(letterIndex('k'), 10);
  assert.equal(letterIndex('m'), 11);
  assert.equal(letterIndex('l'), -1);
  assert.equal(letterIndex('z'), 23);
  assert.equal(letterIndex('aa'), 24);
  assert.equal(lettersAt(24), 'aa');
  assert.equal(lettersAt(letterIndex('bz')), 'bz');
  for (let k = 0; k < 100; k++) assert.equal(letterIndex(lettersAt(k)), k);
  // the same order compareNumbers sorts subrules in
  const sorted = ['704.5y', '704.5z', '704.5aa', '704.5ab', '704.5ba'];
  assert.deepEqual([...sorted].sort(compareNumbers), sorted);
  assert.deepEqual(
    sorted.map((n) => letterIndex(splitNumber(n)!.letters)),
    [...sorted.map((n) => letterIndex(splitNumber(n)!.letters))].sort((a, b) => a - b),
  );
});

test('references in text may name two-letter subrules, alone and in letter ranges', () => {
  assert.deepEqual(
    extractReferences('See rule 704.5aa.').map((r) => r.target),
    ['704.5aa'],
  );
  assert.deepEqual(
    extractReferences('as 704.5z–ab say').map((r) => r.target),
    ['704.5z', '704.5aa', '704.5ab'],
  );
  // still no reference where a word follows the number
  assert.deepEqual(extractReferences('rule 704.5abc').length, 0);
});

test('a short citation anchor names its number, two subrule letters included', () => {
  assert.equal(numberOfShortAnchor('R70219b'), '702.19b');
  assert.equal(numberOfShortAnchor('R7045aa'), '704.5aa');
  assert.equal(numberOfShortAnchor('R70219'), '702.19');
  assert.equal(numberOfShortAnchor('R702'), '702');
  assert.equal(numberOfShortAnchor('702.19b'), null);
  assert.equal(numberOfShortAnchor('R70219b!'), null);
});
