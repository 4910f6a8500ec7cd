import { test } from 'node:test';
import assert from 'node:assert/strict';
import { glossaryHistory, glossaryLineages } from '../../src/engine/glossaryHistory.js';
import type { GlossaryEdition } from '../../src/engine/glossaryHistory.js';

const eds: GlossaryEdition[] = [
  {
    date: '2010-01-01',
    entries: [
      { term: 'Removed from the Game', definition: 'See Exile.' },
      { term: 'Dies', definition: 'Put into a graveyard from play. See rule 700.4.' },
    ],
  },
  {
    date: '2011-01-01',
    entries: [
      { term: 'Dies', definition: 'Put into a graveyard from play. See rule 700.6.' },
      { term: 'Exiled', definition: 'See Exile.' },
    ],
  },
  {
    date: '2012-01-01',
    entries: [
      { term: 'dies', definition: 'Put into a graveyard from the battlefield. See rule 700.6.' },
      { term: 'Exiled', definition: 'See Exile.' },
    ],
  },
];
// rule 700.4 of 2010 is rule 700.6 of 2011 and 2012 (lineage 40)
const lineages: Record<string, Record<string, number>> = {
  '2010-01-01': { '700.4': 40 },
  '2011-01-01': { '700.6': 40 },
  '2012-01-01': { '700.6': 40 },
};
const resolver =
  (date: string) =>
  (t: string): number | null =>
    lineages[date]?.[t] ?? null;

test('glossary lineage: same term (case folded), else a renamed term with the same definition', () => {
  const ids = glossaryLineages(eds);
  assert.equal(ids[1]![0], ids[0]![1], 'Dies continues');
  assert.equal(ids[2]![0], ids[1]![0], 'dies, lower case, continues');
  assert.equal(ids[1]![1], ids[0]![0], '"Removed from the Game" was renamed "Exiled"');
});

test('glossary history: reference-only updates, rewordings and renamings', () => {
  const h = glossaryHistory(eds, 'DIES', resolver)!;
  assert.deepEqual(h.terms, ['Dies', 'dies']);
  assert.deepEqual(
    h.steps.map((s) => [s.date, s.change, s.textChange ?? null]),
    [
      ['2010-01-01', 'added', null],
      ['2011-01-01', 'changed', 'references'],
      ['2012-01-01', 'changed', 'substantive'],
    ],
  );
  const renamed = glossaryHistory(eds, 'exiled', resolver)!;
  assert.deepEqual(renamed.terms, ['Removed from the Game', 'Exiled']);
  assert.equal(renamed.steps[1]!.previousNumber, 'Removed from the Game');
  assert.equal(glossaryHistory(eds, 'Exiled', resolver, '2010-01-01'), null, 'not yet named so in 2010');
  assert.equal(glossaryHistory(eds, 'Mana burn', resolver), null);
});
