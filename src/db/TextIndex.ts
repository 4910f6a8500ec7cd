import type { Statement } from 'better-sqlite3';
import { wordsOf } from '../core/suggest.js';
import { openSearchDb, type Db } from './openDb.js';
import type { TextPlaces } from './TextPlaces.js';

/**
 * The texts one edition shows (rule texts, examples, glossary definitions) in an in-memory SQLite
 * FTS5 index (schema/search): bm25 ranking, snippets and highlights; and where the edition shows
 * each text (TextPlaces). Built on the edition's first search.
 *
 * bm25 reads its statistics (how many texts, their mean length, how many hold each word) from the
 * whole index, and an edition's ranking is that over its search group's texts (the twenty
 * neighbouring editions it is ranked with, Snapshot's SEARCH_GROUP). So the index holds the group's texts:
 * the edition's own at rowids 0 to n - 1 (the k-th of its text ids, ascending, at rowid k: rowid
 * order is text id order), the group's others after them. A query bounded by `rowid < n` stops at
 * the edition's last text; only the count of texts holding each word reads the others.
 */
export class TextIndex {
  private readonly db: Db;
  private readonly s: { match: Statement; any: Statement; ids: Statement; snippet: Statement; highlight: Statement };
  private words: string[] | null = null;
  /** The first rowid past the edition's texts, bound as a BigInt (FTS5 ignores a rowid bound as a double). */
  private readonly end: bigint;
  /** The group's texts the edition does not show (what the vocabulary reads besides the edition's). */
  private readonly others: Int32Array;
  /** Bytes of the index's pages (what it holds outside the JS heap, about) and of its places. */
  readonly bytes: number;

  /**
   * `places`: where the edition shows each of its texts; `others`: the ids of its group's texts it
   * does not show (ranking statistics only); `bodyOf`: a text's body, read as the index takes it.
   */
  constructor(
    readonly places: TextPlaces,
    others: ArrayLike<number>,
    private readonly bodyOf: (textId: number) => string,
  ) {
    this.db = openSearchDb();
    const text = this.db.prepare('INSERT INTO texts (id, body) VALUES (@rowid, @body)');
    const index = this.db.prepare('INSERT INTO texts_fts (rowid, body) VALUES (@rowid, @body)');
    const texts = places.texts;
    this.end = BigInt(texts.length);
    this.others = Int32Array.from(others);
    this.db.transaction(() => {
      for (let k = 0; k < texts.length; k++) {
        const row = { rowid: k, body: bodyOf(texts[k]!) };
        text.run(row);
        index.run(row);
      }
      // (in the index alone: a third less memory for a group of much churn, and no query of the edition reads them)
      for (let j = 0; j < this.others.length; j++) index.run({ rowid: texts.length + j, body: bodyOf(this.others[j]!) });
    })();
    // one segment instead of the fifteen or so FTS5 writes for this many texts: each query term
    // then reads one b-tree (half the time of a ranked query)
    this.db.exec(`INSERT INTO texts_fts (texts_fts) VALUES ('optimize')`);
    this.bytes = (this.db.pragma('page_count', { simple: true }) as number) * (this.db.pragma('page_size', { simple: true }) as number) + places.bytes;
    // SQLite's sorter keeps only the best @limit rows (in C): the rest never reach JavaScript.
    const shown = 'FROM texts_fts WHERE texts_fts MATCH @q AND rowid < @end';
    // The page's texts: one pass over the matches between the page's least and greatest rowid, each
    // checked against the page's list in C. A `rowid IN (…)` that FTS5 reads runs the whole query
    // once per text: a third more for one word, two to three times as much for a phrase of common words.
    const page = 'FROM texts_fts WHERE texts_fts MATCH @q AND rowid BETWEEN @lo AND @hi AND +rowid IN (SELECT value FROM json_each(@rowids))';
    this.s = {
      match: this.db.prepare(`SELECT rowid, bm25(texts_fts) AS score ${shown} ORDER BY score, rowid LIMIT @limit`).raw(true),
      any: this.db.prepare(`SELECT 1 ${shown} LIMIT 1`).pluck(),
      ids: this.db.prepare(`SELECT rowid ${shown} LIMIT @limit`).pluck(),
      // Each only when a caller reads it (FTS5 tokenizes the text again for either).
      snippet: this.db.prepare(`SELECT rowid, snippet(texts_fts, 0, @open, @close, '…', 24) ${page}`).raw(true),
      highlight: this.db.prepare(`SELECT rowid, highlight(texts_fts, 0, @open, @close) ${page}`).raw(true),
    };
  }

  /** The best `limit` matches of an FTS5 query: [text id, bm25 score], best first (ties by text id). */
  matches(ftsQuery: string, limit: number): Array<[number, number]> {
    const rows = this.s.match.all({ q: ftsQuery, limit, end: this.end }) as Array<[number, number]>;
    const texts = this.places.texts;
    for (const row of rows) row[0] = texts[row[0]]!;
    return rows;
  }

  /** Whether any text of the edition matches a query. */
  matchesAny(ftsQuery: string): boolean {
    return this.s.any.get({ q: ftsQuery, end: this.end }) !== undefined;
  }

  /** The ids of at most `limit` texts of the edition that match a query, unranked (what a count reads). */
  ids(ftsQuery: string, limit: number): number[] {
    const texts = this.places.texts;
    return (this.s.ids.all({ q: ftsQuery, limit, end: this.end }) as number[]).map((k) => texts[k]!);
  }

  /** A snippet (or the whole text, `highlight`) of some texts of the edition with the query's matches marked. */
  marks(ftsQuery: string, ids: readonly number[], open: string, close: string, what: 'snippet' | 'highlight'): Map<number, string> {
    const rowids: number[] = [];
    for (const id of ids) {
      const k = this.places.find(id);
      if (k >= 0) rowids.push(k);
    }
    if (rowids.length === 0) return new Map();
    let least = rowids[0]!;
    let greatest = least;
    for (const k of rowids) {
      if (k < least) least = k;
      else if (k > greatest) greatest = k;
    }
    const rows = this.s[what].all({ q: ftsQuery, open, close, rowids: JSON.stringify(rowids), lo: BigInt(least), hi: BigInt(greatest) }) as Array<
      [number, string]
    >;
    const texts = this.places.texts;
    return new Map(rows.map(([k, marked]) => [texts[k]!, marked]));
  }

  /** Every distinct word of three letters or more of the group's texts, lower-cased (what a misspelt word is compared with). */
  vocabulary(): string[] {
    if (this.words) return this.words;
    // in text id order, the edition's and the others' merged (both ascending): the order of the words
    // is the order a misspelt word's equally close candidates are taken in
    const { bodyOf, others } = this;
    const texts = this.places.texts;
    function* bodies(): Generator<string> {
      let j = 0;
      for (const id of texts) {
        while (j < others.length && others[j]! < id) yield bodyOf(others[j++]!);
        yield bodyOf(id);
      }
      while (j < others.length) yield bodyOf(others[j++]!);
    }
    return (this.words = [...wordsOf(bodies())]);
  }

  /** Frees the index. */
  close(): void {
    this.db.close();
  }
}
