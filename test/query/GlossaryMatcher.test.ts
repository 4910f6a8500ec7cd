import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GlossaryRecord } from '../../src/core/records.js';
import { GlossaryMatcher } from '../../src/query/GlossaryMatcher.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { fixtureDb } from '../server/fixtures.js';

const entry = (term: string, ord: number): GlossaryRecord => ({ editionId: 1, ord, versionId: ord, term, textId: ord, definition: `About ${term}.` });

test('glossary terms in a text: longest first, plurals, once per text, obsolete and compound headings left out', () => {
  const g = [
    entry('Creature', 1),
    entry('Attacking Creature', 2),
    entry('Ability', 3),
    entry('At End of Turn (Obsolete)', 4),
    entry('Active Player, Nonactive Player Order', 5),
    entry('If', 6),
    entry('Double-Faced Card', 7),
  ];
  const m = new GlossaryMatcher(g);
  const text = 'An attacking creature with two abilities and a creature: if a Double-Faced Card… at end of turn, active player';
  const found = m.mentions(text).map((x) => [text.slice(x.start, x.end), x.entry.term]);
  assert.deepEqual(found, [
    ['attacking creature', 'Attacking Creature'],
    ['abilities', 'Ability'],
    ['creature', 'Creature'],
    ['Double-Faced Card', 'Double-Faced Card'],
  ]);
  // words across a line break or punctuation are not one term; skip leaves out the entry being defined
  assert.deepEqual(
    m.mentions('attacking, creature').map((x) => x.entry.term),
    ['Creature'],
  );
  assert.deepEqual(m.mentions('A creature.', g[0]), []);
});

test('adjacent rules: same kind, skipping what lies between; glossary mentions per edition', () => {
  const db = fixtureDb();
  try {
    const kb = new KnowledgeBase(db);
    const ed = kb.resolveEdition('2021-07-23').edition;
    const at = (n: string) => {
      const a = kb.adjacent(kb.ruleOrThrow(ed, n));
      return [a.previous?.number ?? null, a.next?.number ?? null];
    };
    assert.deepEqual(at('702.19'), ['702.1', '704.5']);
    assert.deepEqual(at('702.19b'), ['702.19a', '702.19c']);
    assert.deepEqual(at('702'), ['701', '704']);
    assert.deepEqual(at('100'), [null, '510']);
    const r = kb.ruleOrThrow(ed, '702.19a');
    assert.deepEqual(
      kb.glossaryMentions(ed.id, r.text).map((m) => m.entry.term),
      ['Trample'],
    );
  } finally {
    db.close();
  }
});

test('a term of multiplayer or casual play is found only in rules of the parts its definition cites', () => {
  const variant: GlossaryRecord = {
    ...entry('Variant', 1),
    definition: 'An additional set of rules that determines the style of a multiplayer game. See rule 800.2.',
  };
  const m = new GlossaryMatcher([variant, entry('Trample', 2)]);
  const text = 'If an ability is a variant of trample, it is trample.';
  assert.deepEqual(
    m.mentions(text, undefined, '702.19c').map((x) => x.entry.term),
    ['Trample'],
  );
  assert.deepEqual(
    m.mentions('A single game may use only one variant.', undefined, '800.2').map((x) => x.entry.term),
    ['Variant'],
  );
  assert.deepEqual(m.mentions('only one variant').length, 0, 'no rule: not linked');
});

test('mentions kept from an earlier match are those of the same text in the same part: a rule elsewhere is matched anew', () => {
  const variant: GlossaryRecord = {
    ...entry('Variant', 1),
    definition: 'An additional set of rules that determines the style of a multiplayer game. See rule 800.2.',
  };
  const m = new GlossaryMatcher([variant, entry('Trample', 2)]);
  const text = 'A variant of trample.';
  const terms = (where?: string) => m.mentions(text, undefined, where).map((x) => x.entry.term);
  // asked in one order and then the other, twice: each part keeps its own answer
  for (let k = 0; k < 2; k++) {
    assert.deepEqual(terms('800.2'), ['Variant', 'Trample']);
    assert.deepEqual(terms('702.19c'), ['Trample']);
    assert.deepEqual(terms(), ['Trample']);
  }
  // the same text asked again is the same answer (kept), and skip is never answered from what was kept
  assert.equal(m.mentions(text, undefined, '800.2'), m.mentions(text, undefined, '800.2'));
  assert.deepEqual(
    m.mentions(text, variant, '800.2').map((x) => x.entry.term),
    ['Trample'],
  );
});
