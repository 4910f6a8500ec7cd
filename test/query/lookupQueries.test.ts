import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusDb } from '../cli/corpusDb.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import type { LookupAnswer } from '../../src/query/answerLookup.js';
import { formatLookup } from '../../src/query/chatText.js';

// Queries as people type them to rules bots, over the real corpus (issue 22): each answer's first rules.
const dbFile = corpusDb();
let kb: KnowledgeBase | null = null;
const open = (): KnowledgeBase => (kb ??= KnowledgeBase.open(dbFile()));
after(() => kb?.close());

const ask = (q: string): LookupAnswer => {
  const k = open();
  return k.lookup(k.resolveEdition('2021-07-23').edition, q);
};
const first = (a: LookupAnswer, n = 3): string[] => a.rules.slice(0, n).map((r) => r.number);

test('pasted and sloppy numbers answer with the rule, not a search', () => {
  for (const q of [
    '!cr 702.19b',
    '/cr 702.19b',
    '702,19b',
    '702.19b)',
    '(702.19b)',
    '"702.19b"',
    'CR: 702.19b',
    '702 . 19b',
    'what does 702.19b say',
    'cr 702.19b please',
  ]) {
    const a = ask(q);
    assert.equal(a.kind, 'rule', q);
    assert.equal(a.rules[0]?.number, '702.19b', q);
  }
});

test('an edition named anywhere in the query is the edition answered from', () => {
  const cases: Array<[string, string, string]> = [
    ['702.19b in 2009', '2009-07-11', '702.19b'],
    ['502.9b as of 2009-06-01', '2009-05-01', '502.9b'],
    ['502.9b (2009-05-01)', '2009-05-01', '502.9b'],
    ['702.19c on 2021-07-01', '2021-06-18', '702.19c'],
    ['trample (2021-06-18)', '2021-06-18', '702.19'],
  ];
  for (const [q, edition, number] of cases) {
    const a = ask(q);
    assert.equal(a.edition.effectiveDate, edition, q);
    assert.equal(a.rules[0]?.number, number, q);
  }
  // a word that is no set code stays a word of the query
  assert.equal(ask('trample in combat').edition.effectiveDate, '2021-07-23');
});

test('question and stop words are dropped, phrases kept whole', () => {
  assert.ok(['613', '613.1'].includes(ask('how do layers work').rules[0]!.number));
  assert.ok(first(ask('drawing from an empty library')).includes('704.5b'));
  for (const q of ['protection from red', 'what is protection from red', 'pro red', 'protection from creatures']) {
    const a = ask(q);
    assert.equal(a.kind, 'keyword', q);
    assert.equal(a.rules[0]?.number, '702.16', q);
  }
  assert.equal(ask('equip {2}').rules[0]?.number, '702.6');
  assert.equal(ask('the legend rule').glossary[0]?.term, 'Legend Rule');
});

test('two keywords are read as an interaction: where they meet first, then each one', () => {
  for (const q of ['does deathtouch work with trample', 'deathtouch trample', 'trample + deathtouch']) {
    const a = ask(q);
    assert.equal(a.kind, 'interaction', q);
    assert.equal(a.rules[0]?.number, '702.2c', q);
    const numbers = a.rules.map((r) => r.number);
    assert.ok(numbers.includes('702.2') && numbers.includes('702.19'), `${q}: ${numbers.join(' ')}`);
  }
  const fs = ask('first strike and double strike');
  assert.equal(fs.kind, 'interaction');
  assert.ok(
    first(fs).some((n) => ['702.4b', '702.7b'].includes(n)),
    first(fs).join(' '),
  );
});

test('a range too long for one message lists every rule of it, each cut to its share', () => {
  const a = ask('601.2a-h');
  assert.equal(a.kind, 'range');
  for (const format of ['text', 'markdown'] as const) {
    const out = formatLookup(a, format, () => [], { examples: false, fullUrl: 'http://x/full', full: false });
    assert.ok(out.length <= 2000, `${format}: ${out.length} characters`);
    for (const l of 'abcdefgh') assert.match(out, new RegExp(`^(\\*\\*)?601\\.2${l}\\b`, 'm'), `${format}: 601.2${l}`);
    assert.match(out, /http:\/\/x\/full/);
  }
});
