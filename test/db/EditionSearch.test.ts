import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EditionSearch, type EditionMatch, type SearchQuery, type SearchText } from '../../src/db/EditionSearch.js';
import { ftsQuery } from '../../src/db/Reader.js';
import { tokenSpans } from '../../src/db/SearchIndex.js';
import { hasCorpus, loadEdition } from '../engine/corpus.js';

const WORD_RE = /[\p{L}\p{N}]+/gu;

function query(text: string, join: 'and' | 'or'): SearchQuery | null {
  const fts = ftsQuery(text, join);
  return fts === null ? null : { fts, words: text.match(WORD_RE)!.slice(0, 32), join };
}

/** What a Reader indexes of a real edition: rule texts, examples and glossary definitions. */
function editionTexts(rel: string): SearchText[] {
  const doc = loadEdition(rel);
  const bodies = [...doc.rules.flatMap((r) => [r.text, ...r.examples]), ...doc.glossary.map((g) => g.definition)];
  return [...new Set(bodies)].map((body, i) => ({ id: 10 + 3 * i, body }));
}

/** Matches scoring as well as the want-th best, in a fixed order (score, then id). */
function head(ms: EditionMatch[], want: number): string[] {
  const sorted = [...ms].sort((a, b) => a.score - b.score || a.textId - b.textId);
  const cut = sorted[Math.min(want, sorted.length) - 1]?.score;
  return sorted.filter((m) => cut !== undefined && m.score <= cut).map((m) => `${m.textId}:${m.score}`);
}

function searchTexts(texts: SearchText[]): string[] {
  // words of the texts themselves (every 40th distinct one), pairs and triples of them, and odd input
  const words = [...new Set(texts.flatMap((t) => t.body.match(WORD_RE) ?? []))].filter((_, i) => i % 40 === 0);
  const out = [...words];
  for (let i = 0; i + 2 < words.length; i += 7) out.push(`${words[i]} ${words[i + 1]}`, `${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  out.push('trample', 'combat damage', 'state-based actions', 'mana ability', 'the', 'a of the', 'Æther', 'Lim-Dûl', 'JÖTUN', 'cant', 'can’t');
  out.push('trample trample', 'copy of a copy', 'zzzunknown trample', 'trampling', 'NEAR(', '-trample', 'x²', 'caf\u0065\u0301');
  return out;
}

for (const rel of ['mtg-cr/CR-2022-11-18.txt', 'mtg-cr/CR-1999-04-23.txt']) {
  test(`JavaScript search index answers like FTS5: ${rel}`, { skip: !hasCorpus() }, () => {
    const texts = editionTexts(rel);
    const js = new EditionSearch(texts);
    const fts = new EditionSearch(texts, { jsIndex: false });
    try {
      assert.ok(js.js, 'the JavaScript index agrees with FTS5 on a real edition');
      assert.equal(fts.js, null);
      let compared = 0;
      for (const text of searchTexts(texts)) {
        for (const join of ['and', 'or'] as const) {
          const q = query(text, join);
          if (!q) continue;
          for (const want of [1, 11, 40]) {
            const a = js.ranked(q, want);
            const b = fts.ranked(q, want);
            assert.deepEqual(head(a, want), head(b, want), `${join} "${text}" best ${want}`);
            for (let i = 1; i < a.length; i++) assert.ok(a[i - 1]!.score <= a[i]!.score);
          }
          const ids = head(fts.ranked(q, 30), 30).map((k) => Number(k.split(':')[0]));
          if (ids.length > 0) compared++;
          for (const [open, close] of [['<b>', '</b>'], ['', ''], ['**', '**']] as const) {
            for (const what of ['snippet', 'highlight'] as const) {
              const mj = js.markup(q, ids, open, close, what);
              const mf = fts.markup(q, ids, open, close, what);
              assert.equal(mf.size, ids.length);
              assert.deepEqual([...mj].sort(), [...mf].sort(), `${what} ${join} "${text}"`);
            }
          }
        }
      }
      assert.ok(compared > 100, `compared ${compared} queries with matches`);
    } finally {
      js.close();
      fts.close();
    }
  });
}

test('tokenSpans splits like unicode61: letters, digits, diacritics inside words', () => {
  const classOf = (cp: number) => (/\p{L}|\p{N}/u.test(String.fromCodePoint(cp)) ? 'token' : /\p{Mn}/u.test(String.fromCodePoint(cp)) ? 'join' : 'separator');
  const text = 'Lim-Dûl’s e\u0301x \u0301a x²!';
  const spans = tokenSpans(text, classOf);
  const words: string[] = [];
  for (let k = 0; k < spans.length; k += 2) words.push(text.slice(spans[k], spans[k + 1]));
  assert.deepEqual(words, ['Lim', 'Dûl', 's', 'e\u0301x', 'a', 'x²']);
});

test('texts FTS5 would store differently stay with FTS5', () => {
  const es = new EditionSearch([
    { id: 1, body: 'trample \ud800 lone surrogate' },
    { id: 2, body: 'trample again' },
  ]);
  try {
    assert.equal(es.js, null);
    const q = query('trample', 'and')!;
    assert.deepEqual(es.ranked(q, 5).map((m) => m.textId).sort(), [1, 2]);
  } finally {
    es.close();
  }
});
