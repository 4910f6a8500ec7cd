import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusDb } from '../cli/corpusDb.js';
import { wordsOf } from '../../src/core/suggest.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';

const dbFile = corpusDb();

test('a server start reads the newest editions, the others in the background, and every edition reads the same as when all are read at once', async () => {
  const all = KnowledgeBase.open(dbFile());
  const some = KnowledgeBase.open(dbFile());
  try {
    all.snapshot.loadAll();
    some.snapshot.loadAll(1);
    await some.snapshot.editionsInBackground(1);
    const editions = all.snapshot.editions;
    assert.ok(editions.length >= 3, `${editions.length} editions`);
    for (const e of editions) {
      const count = all.snapshot.ruleCount(e.id);
      assert.equal(some.snapshot.ruleCount(e.id), count, e.effectiveDate);
      for (const pos of [0, count >> 1, count - 1])
        assert.deepEqual(some.snapshot.ruleAt(e.id, pos), all.snapshot.ruleAt(e.id, pos), `${e.effectiveDate} ${pos}`);
    }
  } finally {
    all.close();
    some.close();
  }
});

test('the words of a text are its runs of three letters or digits or more, lower-cased, in order, whatever its characters', () => {
  const texts = [
    'Trample: 702.19b. If an attacking creature with trample is blocked…',
    'The player’s “library” — 1999 rules × 2 − 1 ·3',
    'Déjà vu: ÉLAN, İstanbul and Σίσυφος; 1½ and ²3 are digits too',
    'abc ABC Abc ab 12 123',
  ];
  // each text as the pattern reads it: Unicode letters and digits, then lower-cased word by word
  const expected: string[] = [];
  for (const t of texts) for (const w of t.match(/[\p{L}\p{N}]{3,}/gu) ?? []) if (!expected.includes(w.toLowerCase())) expected.push(w.toLowerCase());
  const got = [...wordsOf(texts)];
  assert.deepEqual(got, expected);
  assert.ok(got.includes('player') && got.includes('déjà') && got.includes('σίσυφος') && got.includes('1999'), got.join(' '));
});
