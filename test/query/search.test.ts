import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSearchDb } from '../../src/db/openDb.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();

/** Where a hit is: rule number, example index or glossary term. */
const place = (h: { kind: string; rule: { number: string } | null; exampleIndex: number | null; glossary: { term: string } | null }): string =>
  h.kind === 'glossary' ? `glossary ${h.glossary!.term}` : h.kind === 'example' ? `${h.rule!.number} example ${h.exampleIndex}` : h.rule!.number;

test('a search finds every place of an edition that holds the word, best first, and pages through them', () => {
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

test("a search of one edition reads only the texts it shows, ranked by bm25 over its search group's texts", () => {
  // no warm(): editions read for the first time by a search (as `crkb search --edition` does)
  const kb = KnowledgeBase.open(dbFile());
  try {
    const [a, b] = ['2021-06-18', '2021-07-23'].map((d) => kb.resolveEdition(d).edition);
    const textsOf = (e: { id: number }): Set<number> => {
      const ids = new Set<number>();
      for (const n of kb.snapshot.numbers(e.id)) {
        const r = kb.snapshot.ruleByNumber(e.id, n)!;
        ids.add(r.textId);
        r.exampleIds.forEach((x) => ids.add(x));
      }
      kb.snapshot.glossaryIds(e.id).forEach(([, t]) => ids.add(t));
      return ids;
    };
    const [ta, tb] = [textsOf(a!), textsOf(b!)];
    // (porter stemming: "planeswalker" finds planeswalk, planeswalking, ...)
    // texts of 2021-07-23 holding "planeswalker" that 2021-06-18 does not show: not in its results
    const onlyB = [...tb].filter((t) => !ta.has(t) && /planeswalk/i.test(kb.snapshot.text(t)));
    assert.ok(onlyB.length > 0, 'the two editions differ in texts with the word');
    for (const [e, texts] of [
      [a!, ta],
      [b!, tb],
    ] as const) {
      // the ranking: bm25 of a bare FTS5 index of the texts of the edition's group (twenty CR
      // editions in date order from the first), the edition's texts in that order
      const chain = kb.snapshot.editions.filter((x) => x.family === 'cr');
      const first = Math.floor(chain.findIndex((x) => x.id === e.id) / 20) * 20;
      const group = new Set(chain.slice(first, first + 20).flatMap((x) => [...textsOf(x)]));
      assert.ok(group.size > texts.size, `${e.effectiveDate}'s group has texts it does not show`);
      const bare = openSearchDb();
      try {
        const insert = bare.prepare('INSERT INTO texts_fts (rowid, body) VALUES (?, ?)');
        for (const t of [...group].sort((x, y) => x - y)) insert.run(t, kb.snapshot.text(t));
        for (const q of ['"planeswalker"', '"combat" "damage"', '"the"']) {
          const ranked = bare
            .prepare('SELECT rowid, bm25(texts_fts) AS score FROM texts_fts WHERE texts_fts MATCH ? ORDER BY score, rowid')
            .raw(true)
            .all(q) as Array<[number, number]>;
          const expected = ranked.filter(([t]) => texts.has(t));
          assert.ok(expected.length > 0 && expected.length < ranked.length, q);
          assert.deepEqual(kb.snapshot.searchOf(e.id).matches(q, 100000), expected, `${e.effectiveDate} ${q}`);
        }
      } finally {
        bare.close();
      }
    }
  } finally {
    kb.close();
  }
});

test('a misspelt word is read as the closest word of the edition; a word of another edition is not misspelt', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const e2009 = kb.resolveEdition('2009-05-01').edition;
    const e2021 = kb.resolveEdition('2021-07-23').edition;
    const places = (e: { id: number }, q: string): string[] => kb.search(e.id, q, { limit: 50 }).map(place);
    assert.ok(places(e2021, 'trample').length > 5);
    assert.deepEqual(places(e2021, 'trampel'), places(e2021, 'trample'));
    // "mutate" first appears in 2019: in 2009 nothing holds it, and it is not read as "mutual" or "mute"
    assert.ok(places(e2021, 'mutate').length > 0);
    assert.deepEqual(places(e2009, 'mutate'), []);
  } finally {
    kb.close();
  }
});

test('ranking weighs where the match is, and a corrected word is said', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const e = kb.resolveEdition('2021-07-23').edition;
    // bm25 alone puts a short example repeating "dies" above the rule and the entry defining it
    const dies = kb.search(e.id, 'dies', { limit: 5 }).map(place);
    assert.deepEqual(dies.slice(0, 2), ['glossary Dies', '700.4'], dies.join(', '));
    const trample = kb.search(e.id, 'trample', { limit: 3 }).map(place);
    assert.deepEqual(trample.slice(0, 2), ['glossary Trample', '702.19'], trample.join(', '));
    const fixed = kb.search(e.id, 'comabt damage', { limit: 3 });
    assert.equal(fixed[0]?.correctedQuery, 'combat damage');
    assert.equal(kb.search(e.id, 'combat damage', { limit: 3 })[0]?.correctedQuery, null);
  } finally {
    kb.close();
  }
});

test("a search's count is the number of all its places, and every hit of a page has its snippet, as on any other page", () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const e = kb.resolveEdition('2021-07-23').edition;
    // few matches (the ranking reads them all) and many (the count reads the matches again)
    for (const q of ['trample', 'hexproof', 'banding', 'combat damage', 'the stack', 'ability']) {
      const every = kb.search(e.id, q, { limit: 10_000 });
      assert.ok(every.length > 0, q);
      const counted = kb.countedSearch(e.id, q, { limit: 5 });
      assert.equal(counted.total, every.length, `count of "${q}"`);
      assert.equal(counted.capped, false);
      // snippets of one page of hits, of another page, and of the whole list agree text by text
      const snippetOf = new Map(every.map((h) => [h.textId, h.snippet]));
      for (const offset of [0, 5, Math.max(0, every.length - 3)]) {
        for (const h of kb.search(e.id, q, { limit: 5, offset })) {
          assert.match(h.snippet, /<mark>/, `"${q}" hit ${h.textId} at offset ${offset}`);
          assert.equal(h.snippet, snippetOf.get(h.textId));
        }
      }
    }
  } finally {
    kb.close();
  }
});
