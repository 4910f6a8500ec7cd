import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { Db } from './openDb.js';
import { SearchIndex, tokenSpans, type CharClass } from './SearchIndex.js';

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

/** A search as FTS5 query text (words quoted, never FTS syntax) and as its words. */
export interface SearchQuery {
  fts: string;
  words: readonly string[];
  join: 'and' | 'or';
}

const TOKENIZE = 'porter unicode61 remove_diacritics 2';

// What FTS5's tokenizer makes of strings, learned from FTS5 itself and kept for the process:
// characters outside ASCII, and the index term of each token seen in a stored text (bounded by the corpus).
const charClasses = new Map<number, CharClass>();
const corpusTerms = new Map<string, string>();
// the term of a word users searched for (null: not exactly one token); cleared when full
const queryTerms = new Map<string, string | null>();
const MAX_QUERY_TERMS = 10_000;

/**
 * A full-text index of one edition's texts (rule texts, examples, glossary
 * definitions) in a private in-memory database, with the tokenizer of
 * texts_fts. Matching and bm25 ranking then only touch the edition's texts,
 * instead of every text of every edition.
 *
 * Queries are answered from a JavaScript copy of the index (SearchIndex)
 * when it checks out equal to the FTS5 index (token counts of every text,
 * texts and occurrences of every term, two scored queries) and every word of
 * the query is one index term; otherwise, and for anything else, by FTS5.
 * Both give the same matches, scores, snippets and highlights.
 */
export class EditionSearch {
  private readonly db: Db;
  private readonly match: Statement;
  private readonly best: Statement;
  private readonly snippets: Statement;
  private readonly highlights: Statement;
  private readonly scratchInsert: Statement;
  private readonly scratchTerms: Statement;
  private readonly scratchClear: Statement;
  /** The JavaScript index; null when it could not be made equal to FTS5's. */
  readonly js: SearchIndex | null;

  /** `jsIndex: false`: FTS5 answers everything (to compare with). */
  constructor(texts: Iterable<SearchText>, opts: { jsIndex?: boolean } = {}) {
    this.db = new Database(':memory:');
    this.db.pragma('cache_size = -2000');
    this.db.exec(`CREATE VIRTUAL TABLE f USING fts5 (body, tokenize = '${TOKENIZE}')`);
    this.db.exec(`CREATE VIRTUAL TABLE s USING fts5 (body, tokenize = '${TOKENIZE}')`);
    this.db.exec('CREATE VIRTUAL TABLE s_instance USING fts5vocab(s, instance)');
    const list = [...texts];
    const ins = this.db.prepare('INSERT INTO f (rowid, body) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const t of list) ins.run(t.id, t.body);
    })();
    this.db.exec(`INSERT INTO f (f) VALUES ('optimize')`);
    this.match = this.db.prepare('SELECT rowid AS textId, bm25(f) AS score FROM f WHERE f MATCH @q');
    this.best = this.db.prepare('SELECT rowid AS textId, bm25(f) AS score FROM f WHERE f MATCH @q ORDER BY bm25(f) LIMIT @limit');
    // one text at a time, as a rowid range: FTS5 seeks it (an IN list runs the whole match;
    // "rowid = ?" next to MATCH was not applied at all by the SQLite of better-sqlite3 12)
    this.snippets = this.db.prepare(`SELECT snippet(f, 0, @open, @close, '…', 24) FROM f WHERE f MATCH @q AND rowid >= @id AND rowid <= @id`).pluck();
    this.highlights = this.db.prepare(`SELECT highlight(f, 0, @open, @close) FROM f WHERE f MATCH @q AND rowid >= @id AND rowid <= @id`).pluck();
    this.scratchInsert = this.db.prepare('INSERT INTO s (rowid, body) VALUES (?, ?)');
    this.scratchTerms = this.db.prepare('SELECT doc, offset, term FROM s_instance');
    this.scratchClear = this.db.prepare('DELETE FROM s');
    this.js = opts.jsIndex === false ? null : this.buildIndex(list);
  }

  /** Index terms of each string (in token order), as FTS5's tokenizer makes them. */
  private tokenizeEach(strings: readonly string[]): string[][] {
    const out = strings.map(() => [] as string[]);
    this.db.transaction(() => {
      strings.forEach((s, i) => this.scratchInsert.run(i + 1, s));
      for (const r of this.scratchTerms.all() as Array<{ doc: number; offset: number; term: string }>) out[r.doc - 1]![r.offset] = r.term;
      this.scratchClear.run();
    })();
    return out;
  }

  private classOf = (cp: number): CharClass => charClasses.get(cp) ?? 'separator';

  /** The JavaScript index of the texts, or null when it does not agree with FTS5's. */
  private buildIndex(list: readonly SearchText[]): SearchIndex | null {
    if (list.length === 0) return null;
    // texts SQLite would not store unchanged (NUL, lone surrogates) stay with FTS5
    if (list.some((t) => t.body.includes(String.fromCharCode(0)) || /\p{Cs}/u.test(t.body))) return null;
    // classes of characters outside ASCII not seen before: alone (a token?) and inside a word (part of it?)
    const fresh = new Set<number>();
    for (const { body } of list) {
      for (let i = 0; i < body.length; i++) {
        if (body.charCodeAt(i) < 128) continue;
        const cp = body.codePointAt(i)!;
        if (cp > 0xffff) i++;
        if (!charClasses.has(cp)) fresh.add(cp);
      }
    }
    if (fresh.size > 0) {
      const cps = [...fresh];
      const probes = this.tokenizeEach(cps.flatMap((cp) => [String.fromCodePoint(cp), `a${String.fromCodePoint(cp)}a`]));
      cps.forEach((cp, i) => {
        const alone = probes[2 * i]!.length;
        const inside = probes[2 * i + 1]!.length;
        charClasses.set(cp, alone === 1 ? 'token' : inside === 1 ? 'join' : 'separator');
      });
    }
    // terms of tokens not seen before, from FTS5
    const unknown = new Set<string>();
    for (const { body } of list) {
      const sp = tokenSpans(body, this.classOf);
      for (let k = 0; k < sp.length; k += 2) {
        const raw = body.slice(sp[k], sp[k + 1]);
        if (!corpusTerms.has(raw)) unknown.add(raw);
      }
    }
    if (unknown.size > 0) {
      const raws = [...unknown];
      const terms = this.tokenizeEach(raws);
      for (let i = 0; i < raws.length; i++) {
        const ts = terms[i]!;
        // every token found here must be exactly one FTS5 token, or the boundaries differ
        if (ts.length !== 1 || ts[0] === undefined) return null;
        corpusTerms.set(raws[i]!, ts[0]);
      }
    }
    const index = new SearchIndex(list, this.classOf, (raw) => corpusTerms.get(raw), cLog(this.db));
    return this.agrees(index, list) ? index : null;
  }

  /** Whether the JavaScript index has FTS5's token counts, term statistics and scores. */
  private agrees(index: SearchIndex, texts: readonly SearchText[]): boolean {
    const sizes = this.db.prepare('SELECT id, sz FROM f_docsize').raw().all() as Array<[number, Buffer]>;
    if (sizes.length !== index.size) return false;
    for (const [id, sz] of sizes) if (index.docSize(id) !== readVarint(sz)) return false;
    this.db.exec('CREATE VIRTUAL TABLE f_row USING fts5vocab(f, row)');
    const rows = new Map<string, [number, number]>();
    for (const [term, doc, cnt] of this.db.prepare('SELECT term, doc, cnt FROM f_row').raw().all() as Array<[string, number, number]>) {
      rows.set(term, [doc, cnt]);
    }
    this.db.exec('DROP TABLE f_row');
    let n = 0;
    for (const [term, docCount, cnt] of index.termStats()) {
      const r = rows.get(term);
      if (!r || r[0] !== docCount || r[1] !== cnt) return false;
      n++;
    }
    if (n !== rows.size) return false;
    // scored queries both ways: the first words of the longest text (several phrases, frequent words
    // with the IDF floor, ties), and any of its two rarest words
    const long = texts.reduce((a, b) => (index.docSize(b.id)! > index.docSize(a.id)! ? b : a));
    const spans = tokenSpans(long.body, this.classOf);
    const words = Array.from({ length: spans.length / 2 }, (_, k) => long.body.slice(spans[2 * k], spans[2 * k + 1]));
    const termAt = words.map((w) => corpusTerms.get(w)!);
    const first: number[] = [];
    for (let k = 0; k < termAt.length && first.length < 4; k++) {
      if (!first.some((j) => termAt[j] === termAt[k])) first.push(k);
    }
    const byRarity = termAt.map((_, k) => k).sort((a, b) => rows.get(termAt[a]!)![0] - rows.get(termAt[b]!)![0]);
    const rare = byRarity.filter((k, i) => i === 0 || termAt[k] !== termAt[byRarity[0]!]).slice(0, 2);
    for (const [join, ks] of [['and', first], ['or', rare]] as const) {
      const fts = ks.map((k) => `"${words[k]!.replace(/"/g, '""')}"`).join(join === 'and' ? ' ' : ' OR ');
      const a = (this.match.all({ q: fts }) as EditionMatch[]).sort((x, y) => x.textId - y.textId);
      const b = index.match(ks.map((k) => termAt[k]!), join).sort((x, y) => x.textId - y.textId);
      if (a.length === 0 || a.length !== b.length || a.some((m, i) => m.textId !== b[i]!.textId || m.score !== b[i]!.score)) return false;
    }
    return true;
  }

  /** Index terms of a query's words for the JavaScript index (each exactly one term), or null. */
  private termsOf(q: SearchQuery): string[] | null {
    if (!this.js) return null;
    const out: string[] = [];
    const missing: string[] = [];
    for (const w of q.words) {
      const t = corpusTerms.get(w) ?? queryTerms.get(w);
      if (t === undefined) missing.push(w);
      else if (t === null) return null;
    }
    if (missing.length > 0) {
      if (queryTerms.size + missing.length > MAX_QUERY_TERMS) queryTerms.clear();
      const ts = this.tokenizeEach(missing);
      missing.forEach((w, i) => queryTerms.set(w, ts[i]!.length === 1 && ts[i]![0] !== undefined ? ts[i]![0]! : null));
    }
    for (const w of q.words) {
      const t = corpusTerms.get(w) ?? queryTerms.get(w);
      if (t === undefined || t === null) return null;
      out.push(t);
    }
    return out;
  }

  /** Texts matching an FTS query (already escaped) with their scores: every one, or the `limit` best, best first. */
  matches(q: string, limit?: number): EditionMatch[] {
    return (limit === undefined ? this.match.all({ q }) : this.best.all({ q, limit })) as EditionMatch[];
  }

  /**
   * The best texts of a query, best first: at least the `want` best and
   * every text scoring as well as the last of them (ties are ordered by
   * document position later, so all of them are needed), or all.
   */
  ranked(q: SearchQuery, want: number): EditionMatch[] {
    const terms = this.termsOf(q);
    if (terms) return this.js!.best(terms, q.join, want);
    let matches = this.matches(q.fts, want + 16);
    if (matches.length === want + 16 && matches[matches.length - 1]!.score <= matches[want - 1]!.score) {
      matches = this.matches(q.fts);
    }
    return matches.sort((a, b) => a.score - b.score);
  }

  /** Snippets (or whole highlighted bodies) of some matching texts, by text id. */
  markup(q: SearchQuery, ids: readonly number[], open: string, close: string, what: 'snippet' | 'highlight'): Map<number, string> {
    const out = new Map<number, string>();
    const terms = this.termsOf(q);
    const st = what === 'snippet' ? this.snippets : this.highlights;
    for (const id of ids) {
      const v = terms
        ? what === 'snippet'
          ? this.js!.snippet(id, terms, open, close, '…', 24)
          : this.js!.highlight(id, terms, open, close)
        : (st.get({ q: q.fts, id, open, close }) as string | undefined);
      if (v !== undefined && v !== null) out.set(id, v);
    }
    return out;
  }

  /** Frees the in-memory database. */
  close(): void {
    this.db.close();
  }
}

/**
 * The C library's log, through SQLite's ln(). Made here, not in a closure of
 * buildIndex: it would keep that scope (every token of the edition) alive.
 */
function cLog(db: Db): (x: number) => number {
  const ln = db.prepare('SELECT ln(?)').pluck();
  return (x) => ln.get(x) as number;
}

/** An SQLite varint (FTS5 docsize: one per column). */
function readVarint(b: Buffer): number {
  let v = 0;
  for (const byte of b) {
    v = v * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) break;
  }
  return v;
}
