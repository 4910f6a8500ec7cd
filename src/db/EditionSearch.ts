import type { Statement } from 'better-sqlite3';
import { openSearchDb, type Db } from './openDb.js';

/**
 * One edition's texts in an in-memory SQLite FTS5 index (schema/search): bm25 ranking with the
 * edition's own statistics, snippets and highlights. Built on the edition's first search, in
 * about a tenth of a second; a query then reads only that edition's posting lists.
 */
export class EditionSearch {
  private readonly db: Db;
  private readonly s: { match: Statement; any: Statement; snippet: Statement; highlight: Statement; bodies: Statement };
  /** The texts whose marks the running `marks` query makes. */
  private wanted: Set<number> | null = null;
  private words: string[] | null = null;

  constructor(texts: Iterable<[id: number, body: string]>) {
    this.db = openSearchDb();
    const insert = this.db.prepare('INSERT INTO texts_fts (rowid, body) VALUES (@id, @body)');
    this.db.transaction(() => {
      for (const [id, body] of texts) insert.run({ id, body });
    })();
    // one segment instead of the fifteen or so FTS5 writes for an edition: each query term then
    // reads one b-tree (half the time of a ranked query)
    this.db.exec(`INSERT INTO texts_fts (texts_fts) VALUES ('optimize')`);
    this.db.function('crkb_wanted', (id) => (this.wanted?.has(Number(id)) ? 1 : 0));
    this.s = {
      // SQLite's sorter keeps only the best @limit rows (in C): the rest never reach JavaScript.
      match: this.db.prepare('SELECT rowid, bm25(texts_fts) AS score FROM texts_fts WHERE texts_fts MATCH @q ORDER BY score, rowid LIMIT @limit').raw(true),
      any: this.db.prepare('SELECT 1 FROM texts_fts WHERE texts_fts MATCH @q LIMIT 1').pluck(),
      // Each only when a caller reads it (FTS5 tokenizes the text again for either). The page's
      // texts are picked by a function, not `rowid = @id`: FTS5 ignores a rowid bound as a double.
      snippet: this.db.prepare(`SELECT rowid, snippet(texts_fts, 0, @open, @close, '…', 24) FROM texts_fts WHERE texts_fts MATCH @q AND crkb_wanted(rowid)`).raw(true),
      highlight: this.db.prepare(`SELECT rowid, highlight(texts_fts, 0, @open, @close) FROM texts_fts WHERE texts_fts MATCH @q AND crkb_wanted(rowid)`).raw(true),
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

  /** A snippet (or the whole text, `highlight`) of some texts with the query's matches marked. */
  marks(ftsQuery: string, ids: readonly number[], open: string, close: string, what: 'snippet' | 'highlight'): Map<number, string> {
    this.wanted = new Set(ids);
    try {
      return new Map(this.s[what].all({ q: ftsQuery, open, close }) as Array<[number, string]>);
    } finally {
      this.wanted = null;
    }
  }

  /** Every distinct word of three letters or more in the edition's texts, lower-cased (what a misspelt search word is compared with). */
  vocabulary(): string[] {
    if (this.words === null) {
      const seen = new Set<string>();
      for (const body of this.s.bodies.iterate() as IterableIterator<string>) {
        for (const w of body.match(/[\p{L}\p{N}]{3,}/gu) ?? []) seen.add(w.toLowerCase());
      }
      this.words = [...seen];
    }
    return this.words;
  }

  /** Frees the index. */
  close(): void {
    this.db.close();
  }
}
