import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusDb, skip } from '../cli/corpusDb.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';

const dbFile = corpusDb();

/** Where a hit is: rule number, example index or glossary term. */
const place = (h: { kind: string; rule: { number: string } | null; exampleIndex: number | null; glossary: { term: string } | null }): string =>
  h.kind === 'glossary' ? `glossary ${h.glossary!.term}` : h.kind === 'example' ? `${h.rule!.number} example ${h.exampleIndex}` : h.rule!.number;

test('a search finds every place of an edition that holds the word, best first, and pages through them', { skip }, () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const e = kb.resolveEdition('2021-07-23').edition;
    const x = kb.exportEdition(e);
    // porter stemming: "trample" also matches trampling, tramples, trampled
    const holds = (s: string): boolean => /\btrampl\w*/i.test(s);
    const expected = [
      ...x.rules.filter((r) => holds(r.text)).map((r) => r.number),
      ...x.rules.flatMap((r) => r.examples.flatMap((ex, i) => (holds(ex) ? [`${r.number} example ${i}`] : []))),
      ...x.glossary.filter((g) => holds(g.definition)).map((g) => `glossary ${g.term}`),
    ];
    assert.ok(expected.length > 12, `${expected.length} places`);
    const all = kb.search(e.id, 'trample', { limit: 1000 });
    assert.deepEqual(all.map(place).sort(), expected.sort());
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.score <= all[i]!.score, `hit ${i} is ranked below a worse one`);
    // pages of 7 read the same list, in the same order, as one long page
    const paged = [];
    for (let offset = 0; offset < all.length; offset += 7) paged.push(...kb.search(e.id, 'trample', { limit: 7, offset }));
    assert.deepEqual(paged.map(place), all.map(place));
  } finally {
    kb.close();
  }
});
