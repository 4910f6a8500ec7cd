import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { openSearchDb } from '../../src/db/openDb.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { corpusDb } from '../cli/corpusDb.js';
import { crFixtureText } from '../support/crFixture.js';
import { tempDir } from '../support/tempDir.js';

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

test('a search of one edition reads only the texts it shows, ranked by bm25 over them alone', () => {
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
      // the floor: a bare FTS5 index of exactly the edition's texts, its bm25 ranking
      const bare = openSearchDb();
      try {
        const insert = bare.prepare('INSERT INTO texts_fts (rowid, body) VALUES (?, ?)');
        for (const t of [...texts].sort((x, y) => x - y)) insert.run(t, kb.snapshot.text(t));
        for (const q of ['"planeswalker"', '"combat" "damage"', '"the"']) {
          const expected = bare.prepare('SELECT rowid, bm25(texts_fts) AS score FROM texts_fts WHERE texts_fts MATCH ? ORDER BY score, rowid').raw(true).all(q);
          assert.ok(expected.length > 0, q);
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

test("an edition's search answers the same when another edition of its family is added to the database", async () => {
  const dir = tempDir('crkb-search-');
  const dbs = [join(dir, 'june.db'), join(dir, 'both.db')];
  writeFileSync(join(dir, '2026-06-19.txt'), crFixtureText('2026-06-19'));
  writeFileSync(join(dir, '2026-08-07.txt'), crFixtureText('2026-08-07'));
  await runIngest({ inputs: expandInputs([join(dir, '2026-06-19.txt')]), dbFile: dbs[0]! });
  await runIngest({ inputs: expandInputs([join(dir, '2026-06-19.txt'), join(dir, '2026-08-07.txt')]), dbFile: dbs[1]! });
  const answers = dbs.map((db) => {
    const kb = KnowledgeBase.open(db);
    try {
      const june = kb.resolveEdition('2026-06-19').edition;
      return ['permanent', 'speed', 'graveyard', 'players game'].map((q) =>
        kb.search(june.id, q, { limit: 50 }).map((h) => ({ place: place(h), score: h.score, snippet: h.snippet })),
      );
    } finally {
      kb.close();
    }
  });
  assert.ok(answers[0]!.every((hits) => hits.length > 0));
  // (the August edition adds texts with "permanent" and "speed": statistics over both would score the June edition's hits otherwise)
  assert.deepEqual(answers[1], answers[0]);
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
