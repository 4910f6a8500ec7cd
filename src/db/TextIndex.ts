import type { Statement } from 'better-sqlite3';
import { wordsOf } from '../core/suggest.js';
import { openSearchDb, type Db } from './openDb.js';
import type { TextPlaces } from './TextPlaces.js';

/**
 * The texts one edition shows (rule texts, examples, glossary definitions) in an in-memory SQLite
 * FTS5 index (schema/search), rowid = text id: bm25 ranking over the edition's own texts (its scores
 * depend on no other edition), snippets and highlights; and where the edition shows each text
 * (TextPlaces). Built on the edition's first search.
 */
export class TextIndex {
  private readonly db: Db;
  private readonly s: { match: Statement; any: Statement; ids: Statement; snippet: Statement; highlight: Statement; bodies: Statement };
  private words: string[] | null = null;
  /** Bytes of the index's pages (what it holds outside the JS heap, about) and of its places. */
  readonly bytes: number;

  /** `places`: where the edition shows each of its texts; `bodyOf`: a text's body, read as the index takes it. */
  constructor(
    readonly places: TextPlaces,
    bodyOf: (textId: number) => string,
  ) {
    this.db = openSearchDb();
    const insert = this.db.prepare('INSERT INTO texts_fts (rowid, body) VALUES (@rowid, @body)');
    this.db.transaction(() => {
      for (const rowid of places.texts) insert.run({ rowid, body: bodyOf(rowid) });
    })();
    // one segment instead of the fifteen or so FTS5 writes for this many texts: each query term
    // then reads one b-tree (half the time of a ranked query)
    this.db.exec(`INSERT INTO texts_fts (texts_fts) VALUES ('optimize')`);
    this.bytes = (this.db.pragma('page_count', { simple: true }) as number) * (this.db.pragma('page_size', { simple: true }) as number) + places.bytes;
    // SQLite's sorter keeps only the best @limit rows (in C): the rest never reach JavaScript.
    const all = 'FROM texts_fts WHERE texts_fts MATCH @q';
    // The page's texts: one pass over the matches between the page's least and greatest rowid (bound as
    // BigInts: FTS5 ignores a rowid bound as a double), each checked against the page's list in C. A
    // `rowid IN (…)` that FTS5 reads runs the whole query once per text: a third more for one word,
    // two to three times as much for a phrase of common words.
    const page = `${all} AND rowid BETWEEN @lo AND @hi AND +rowid IN (SELECT value FROM json_each(@rowids))`;
    this.s = {
      match: this.db.prepare(`SELECT rowid, bm25(texts_fts) AS score ${all} ORDER BY score, rowid LIMIT @limit`).raw(true),
      any: this.db.prepare(`SELECT 1 ${all} LIMIT 1`).pluck(),
      ids: this.db.prepare(`SELECT rowid ${all} LIMIT @limit`).pluck(),
      // Each only when a caller reads it (FTS5 tokenizes the text again for either).
      snippet: this.db.prepare(`SELECT rowid, snippet(texts_fts, 0, @open, @close, '…', 24) ${page}`).raw(true),
      highlight: this.db.prepare(`SELECT rowid, highlight(texts_fts, 0, @open, @close) ${page}`).raw(true),
      bodies: this.db.prepare('SELECT body FROM texts_fts').pluck(),
    };
  }

  /** The best `limit` matches of an FTS5 query: [text id, bm25 score], best first (ties by text id). */
  matches(ftsQuery: string, limit: number): Array<[number, number]> {
    return this.s.match.all({ q: ftsQuery, limit }) as Array<[number, number]>;
  }

  /** Whether any text matches a query. */
  matchesAny(ftsQuery: string): boolean {
    return this.s.any.get({ q: ftsQuery }) !== undefined;
  }

  /** The ids of at most `limit` texts that match a query, unranked (what a count reads). */
  ids(ftsQuery: string, limit: number): number[] {
    return this.s.ids.all({ q: ftsQuery, limit }) as number[];
  }

  /** A snippet (or the whole text, `highlight`) of some texts with the query's matches marked. */
  marks(ftsQuery: string, ids: readonly number[], open: string, close: string, what: 'snippet' | 'highlight'): Map<number, string> {
    if (ids.length === 0) return new Map();
    let least = ids[0]!;
    let greatest = least;
    for (const id of ids) {
      if (id < least) least = id;
      else if (id > greatest) greatest = id;
    }
    const rows = this.s[what].all({ q: ftsQuery, open, close, rowids: JSON.stringify(ids), lo: BigInt(least), hi: BigInt(greatest) });
    return new Map(rows as Array<[number, string]>);
  }

  /** Every distinct word of three letters or more of the edition's texts, lower-cased (what a misspelt word is compared with). */
  vocabulary(): string[] {
    return (this.words ??= [...wordsOf(this.s.bodies.iterate() as IterableIterator<string>)]);
  }

  /** Frees the index. */
  close(): void {
    this.db.close();
  }
}
