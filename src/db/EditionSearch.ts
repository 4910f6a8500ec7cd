import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Db } from './openDb.js';

/** One text to index: its id in `texts` and its body. */
export interface SearchText {
  id: number;
  body: string;
}

/** A match of an edition search: the text id and its bm25 score (lower is better). */
export interface EditionMatch {
  textId: number;
  score: number;
}

/**
 * A full-text index of one edition's texts (rule texts, examples, glossary
 * definitions) in a private in-memory database, with the tokenizer of
 * texts_fts. Matching and bm25 ranking then only touch the edition's texts,
 * instead of every text of every edition. Built in tens of milliseconds.
 */
export class EditionSearch {
  private readonly db: Db;
  private readonly match: Statement;
  private readonly best: Statement;
  private readonly snippets: Statement;
  private readonly highlights: Statement;

  constructor(texts: Iterable<SearchText>) {
    this.db = new Database(':memory:');
    this.db.pragma('cache_size = -2000');
    this.db.exec(`CREATE VIRTUAL TABLE f USING fts5 (body, tokenize = 'porter unicode61 remove_diacritics 2')`);
    const ins = this.db.prepare('INSERT INTO f (rowid, body) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const t of texts) ins.run(t.id, t.body);
    })();
    this.db.exec(`INSERT INTO f (f) VALUES ('optimize')`);
    this.match = this.db.prepare('SELECT rowid AS textId, bm25(f) AS score FROM f WHERE f MATCH @q');
    this.best = this.db.prepare('SELECT rowid AS textId, bm25(f) AS score FROM f WHERE f MATCH @q ORDER BY bm25(f) LIMIT @limit');
    // one text at a time, as a rowid range: FTS5 seeks it (an IN list runs the whole match;
    // "rowid = ?" next to MATCH was not applied at all by the SQLite of better-sqlite3 12)
    this.snippets = this.db.prepare(`SELECT snippet(f, 0, @open, @close, '…', 24) FROM f WHERE f MATCH @q AND rowid >= @id AND rowid <= @id`).pluck();
    this.highlights = this.db.prepare(`SELECT highlight(f, 0, @open, @close) FROM f WHERE f MATCH @q AND rowid >= @id AND rowid <= @id`).pluck();
  }

  /** Texts matching an FTS query (already escaped) with their scores: every one, or the `limit` best, best first. */
  matches(q: string, limit?: number): EditionMatch[] {
    return (limit === undefined ? this.match.all({ q }) : this.best.all({ q, limit })) as EditionMatch[];
  }

  /** Snippets (or whole highlighted bodies) of some matching texts, by text id. */
  markup(q: string, ids: readonly number[], open: string, close: string, what: 'snippet' | 'highlight'): Map<number, string> {
    const st = what === 'snippet' ? this.snippets : this.highlights;
    const out = new Map<number, string>();
    for (const id of ids) {
      const v = st.get({ q, id, open, close }) as string | undefined;
      if (v !== undefined) out.set(id, v);
    }
    return out;
  }

  /** Frees the in-memory database. */
  close(): void {
    this.db.close();
  }
}
