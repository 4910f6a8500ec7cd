import { test } from 'node:test';
import assert from 'node:assert/strict';
import { italicRuns, stripItalics } from '../../src/core/italics.js';
import { formatLookup } from '../../src/query/chatText.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { emphasized } from '../../src/web/html.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();

test('underscore italics: runs, stripped, emphasized; underscores inside words or around spaces stay', () => {
  assert.deepEqual(italicRuns('These _Magic_ rules'), [
    { text: 'These ', italic: false },
    { text: 'Magic', italic: true },
    { text: ' rules', italic: false },
  ]);
  assert.equal(
    stripItalics('the _Magic: The Gathering_ Tournament Rules and _Time Spiral_(R) cards'),
    'the Magic: The Gathering Tournament Rules and Time Spiral(R) cards',
  );
  assert.equal(stripItalics('a_b_c, _ x _, snake_case_name'), 'a_b_c, _ x _, snake_case_name');
  assert.equal(emphasized('<_Magic_>').value, '&lt;<em>Magic</em>&gt;');
});

test('a 2009 rule reads as published: emphasis on the page, no underscores in a bot’s plain text', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const ed = kb.resolveEdition('2009-07-11').edition;
    const r = kb.rule(ed.id, '100.1')!;
    assert.match(r.text, /_Magic_/, 'the stored text keeps the source');
    const text = formatLookup(kb.lookup(ed, '100.1'), 'text', () => [], { examples: false, fullUrl: 'https://x' });
    assert.match(text, /These Magic rules/);
    assert.doesNotMatch(text, /_Magic_/);
  } finally {
    kb.close();
  }
});
