import type { Statement } from 'better-sqlite3';
import { wordsOf } from '../core/suggest.js';
import { openSearchDb, type Db } from './openDb.js';

/** Search within one edition: its group's index, reading only the texts the edition shows. */
export interface EditionSearch {
  /** The best `limit` matches of an FTS5 query: [text id, bm25 score], best first (ties by text id). */
  matches(ftsQuery: string, limit: number): Array<[number, number]>;
  /** Whether any text of the edition matches a query. */
  matchesAny(ftsQuery: string): boolean;
  /** The ids of at most `limit` texts that match a query, unranked (what a count reads). */
  ids(ftsQuery: string, limit: number): number[];
  /** A snippet (or the whole text, `highlight`) of some texts with the query's matches marked. */
  marks(ftsQuery: string, ids: readonly number[], open: string, close: string, what: 'snippet' | 'highlight'): Map<number, string>;
  /** Every distinct word of three letters or more of the group's texts, lower-cased (what a misspelt word is compared with). */
  vocabulary(): string[];
}

/** The filter between queries: no text. */
const NONE = new Uint8Array(0);

/**
 * The texts of a group of neighbouring editions in an in-memory SQLite FTS5 index (schema/search):
 * bm25 ranking, snippets and highlights. Neighbours share most texts, so a group of twenty editions
 * holds about 1.3 times the texts of one: an index per group, built in about a tenth of a second,
 * keeps every edition searchable at about the cost of an index per edition (a query of one
 * edition skips the group's other texts).
 */
export class TextIndex {
  private readonly db: Db;
  private readonly s: { match: Statement; any: Statement; ids: Statement; snippet: Statement; highlight: Statement; bodies: Statement };
  /** The running query's filter: bit per text id, the texts of the edition searched. */
  private shown: Uint8Array = NONE;
  /** The texts whose marks the running `marks` query makes. */
  private wanted: Set<number> | null = null;
  private words: string[] | null = null;

  constructor(texts: Iterable<[id: number, body: string]>) {
    this.db = openSearchDb();
    const insert = this.db.prepare('INSERT INTO texts_fts (rowid, body) VALUES (@id, @body)');
    this.db.transaction(() => {
      for (const [id, body] of texts) insert.run({ id, body });
    })();
    // one segment instead of the fifteen or so FTS5 writes for this many texts: each query term
    // then reads one b-tree (half the time of a ranked query)
    this.db.exec(`INSERT INTO texts_fts (texts_fts) VALUES ('optimize')`);
    const shown = (id: unknown): number => {
      const t = Number(id);
      return ((this.shown[t >> 3] ?? 0) >> (t & 7)) & 1;
    };
    this.db.function('crkb_shown', shown);
    this.db.function('crkb_wanted', (id) => (this.wanted?.has(Number(id)) ? 1 : 0));
    this.s = {
      // SQLite applies the filter before it computes bm25, and its sorter keeps only the best
      // @limit rows (in C): the rest never reach JavaScript.
      match: this.db
        .prepare('SELECT rowid, bm25(texts_fts) AS score FROM texts_fts WHERE texts_fts MATCH @q AND crkb_shown(rowid) ORDER BY score, rowid LIMIT @limit')
        .raw(true),
      any: this.db.prepare('SELECT 1 FROM texts_fts WHERE texts_fts MATCH @q AND crkb_shown(rowid) LIMIT 1').pluck(),
      ids: this.db.prepare('SELECT rowid FROM texts_fts WHERE texts_fts MATCH @q AND crkb_shown(rowid) LIMIT @limit').pluck(),
      // Each only when a caller reads it (FTS5 tokenizes the text again for either). The page's
      // texts are picked by a function, not `rowid = @id`: FTS5 ignores a rowid bound as a double.
      snippet: this.db
        .prepare(`SELECT rowid, snippet(texts_fts, 0, @open, @close, '…', 24) FROM texts_fts WHERE texts_fts MATCH @q AND crkb_wanted(rowid)`)
        .raw(true),
      highlight: this.db
        .prepare(`SELECT rowid, highlight(texts_fts, 0, @open, @close) FROM texts_fts WHERE texts_fts MATCH @q AND crkb_wanted(rowid)`)
        .raw(true),
      bodies: this.db.prepare('SELECT body FROM texts_fts').pluck(),
    };
  }

  /** The search of one edition of the group: `shown` has a bit per text id, set for the texts it shows. */
  forEdition(shown: Uint8Array): EditionSearch {
    return {
      matches: (ftsQuery, limit) => this.filtered(shown, () => this.s.match.all({ q: ftsQuery, limit }) as Array<[number, number]>),
      matchesAny: (ftsQuery) => this.filtered(shown, () => this.s.any.get({ q: ftsQuery }) !== undefined),
      ids: (ftsQuery, limit) => this.filtered(shown, () => this.s.ids.all({ q: ftsQuery, limit }) as number[]),
      marks: (ftsQuery, ids, open, close, what) => {
        this.wanted = new Set(ids);
        try {
          return new Map(this.s[what].all({ q: ftsQuery, open, close }) as Array<[number, string]>);
        } finally {
          this.wanted = null;
        }
      },
      vocabulary: () => this.vocabulary(),
    };
  }

  private filtered<T>(shown: Uint8Array, f: () => T): T {
    this.shown = shown;
    try {
      return f();
    } finally {
      this.shown = NONE;
    }
  }

  private vocabulary(): string[] {
    return (this.words ??= [...wordsOf(this.s.bodies.iterate() as IterableIterator<string>)]);
  }

  /** Frees the index. */
  close(): void {
    this.db.close();
  }
}
