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

/**
 * The texts of a group of neighbouring editions in an in-memory SQLite FTS5 index (schema/search):
 * bm25 ranking, snippets and highlights. Neighbours share most texts, so a group of twenty editions
 * holds about 1.3 times the texts of one: an index per group, built in about a tenth of a second,
 * keeps every edition searchable at about the cost of an index per edition (a query of one
 * edition skips the group's other texts).
 *
 * A text's rowid is its id shifted left by the group's size, with bit k set when the group's k-th
 * edition shows it: the edition filter is arithmetic on the rowid inside SQLite (a JavaScript
 * function called for every matching row, or a join, cost a third of a search). Rowids keep the
 * order of text ids, and bm25 does not read them: ranking and ties are those of the ids.
 */
export class TextIndex {
  private readonly db: Db;
  private readonly s: { match: Statement; any: Statement; ids: Statement; snippet: Statement; highlight: Statement; bodies: Statement };
  /** Bits of membership under each text id in a rowid. */
  private readonly width: number;
  /** Per member, the least and greatest rowid its texts can have (its least and greatest text id): the bounds of its queries. */
  private readonly bounds: Array<{ lo: bigint; hi: bigint }>;
  private words: string[] | null = null;
  /** Each indexed text's member bits (its rowid's low bits) by text id: a page's rowids in one read each, not a read of every member's bits. */
  private readonly masks: Uint32Array;
  /** Each member's search, made on its first use (a search per request would otherwise make its closures again). */
  private readonly searches: Array<EditionSearch | undefined> = [];

  /** `members`: the text bits (a bit per text id) of each edition of the group; `texts` are the texts they show. */
  constructor(
    texts: Iterable<[id: number, body: string]>,
    private readonly members: readonly Uint8Array[],
  ) {
    this.width = members.length;
    if (this.width > 31) throw new Error(`a search group has ${this.width} editions; at most 31 fit in a rowid`);
    this.bounds = members.map((m) => {
      let first = 0;
      while (first < m.length && m[first] === 0) first++;
      let last = m.length - 1;
      while (last > first && m[last] === 0) last--;
      if (first >= m.length) return { lo: 1n, hi: 0n };
      const lowBit = 31 - Math.clz32(m[first]! & -m[first]!);
      const highBit = 31 - Math.clz32(m[last]!);
      return { lo: BigInt(first * 8 + lowBit) << BigInt(this.width), hi: ((BigInt(last * 8 + highBit) + 1n) << BigInt(this.width)) - 1n };
    });
    this.db = openSearchDb();
    this.masks = new Uint32Array(Math.max(0, ...members.map((m) => m.length)) * 8);
    const insert = this.db.prepare('INSERT INTO texts_fts (rowid, body) VALUES (@rowid, @body)');
    this.db.transaction(() => {
      for (const [id, body] of texts) {
        let mask = 0;
        for (let k = 0; k < members.length; k++) if (((members[k]![id >> 3] ?? 0) >> (id & 7)) & 1) mask |= 1 << k;
        if (id >= this.masks.length) throw new Error(`text ${id} is too large an id for a search rowid`);
        this.masks[id] = mask;
        const rowid = this.rowidOf(id);
        if (!Number.isSafeInteger(rowid)) throw new Error(`text ${id} is too large an id for a search rowid`);
        insert.run({ rowid, body });
      }
    })();
    // one segment instead of the fifteen or so FTS5 writes for this many texts: each query term
    // then reads one b-tree (half the time of a ranked query)
    this.db.exec(`INSERT INTO texts_fts (texts_fts) VALUES ('optimize')`);
    // SQLite applies the filter before it computes bm25, and its sorter keeps only the best
    // @limit rows (in C): the rest never reach JavaScript.
    // Text ids follow the editions (a text's id is given when an edition first prints it), so an old
    // edition's texts sit low in its group's rowids: the bounds keep FTS5 from reading the newer ones.
    const shown = 'FROM texts_fts WHERE texts_fts MATCH @q AND rowid BETWEEN @lo AND @hi AND rowid & @bit';
    // The page's texts: one pass over the matches between the page's least and greatest rowid (bound as
    // BigInts: FTS5 ignores a rowid bound as a double), each checked against the page's list in C. A
    // `rowid IN (…)` that FTS5 reads runs the whole query once per text: a third more for one word,
    // two to three times as much for a phrase of common words.
    const page = 'FROM texts_fts WHERE texts_fts MATCH @q AND rowid BETWEEN @lo AND @hi AND +rowid IN (SELECT value FROM json_each(@rowids))';
    this.s = {
      match: this.db.prepare(`SELECT rowid >> @width, bm25(texts_fts) AS score ${shown} ORDER BY score, rowid LIMIT @limit`).raw(true),
      any: this.db.prepare(`SELECT 1 ${shown} LIMIT 1`).pluck(),
      ids: this.db.prepare(`SELECT rowid >> @width ${shown} LIMIT @limit`).pluck(),
      // Each only when a caller reads it (FTS5 tokenizes the text again for either).
      snippet: this.db.prepare(`SELECT rowid >> @width, snippet(texts_fts, 0, @open, @close, '…', 24) ${page}`).raw(true),
      highlight: this.db.prepare(`SELECT rowid >> @width, highlight(texts_fts, 0, @open, @close) ${page}`).raw(true),
      bodies: this.db.prepare('SELECT body FROM texts_fts').pluck(),
    };
  }

  /** The search of one edition of the group: `shown` has a bit per text id, set for the texts it shows (one of the members). */
  forEdition(shown: Uint8Array): EditionSearch {
    let slot = this.members.indexOf(shown);
    if (slot < 0) slot = this.members.findIndex((m) => m.length === shown.length && m.every((b, k) => b === shown[k]));
    if (slot < 0) throw new Error('the edition searched is not one of its search group');
    return (this.searches[slot] ??= this.searchOf(slot));
  }

  private searchOf(slot: number): EditionSearch {
    const width = this.width;
    const { lo, hi } = this.bounds[slot]!;
    // (one VDBE operation a row fewer than shifting the rowid by the slot)
    const bit = 2 ** slot;
    return {
      matches: (ftsQuery, limit) => this.s.match.all({ q: ftsQuery, limit, bit, width, lo, hi }) as Array<[number, number]>,
      matchesAny: (ftsQuery) => this.s.any.get({ q: ftsQuery, bit, lo, hi }) !== undefined,
      ids: (ftsQuery, limit) => this.s.ids.all({ q: ftsQuery, limit, bit, width, lo, hi }) as number[],
      marks: (ftsQuery, ids, open, close, what) => {
        if (ids.length === 0) return new Map();
        const rowids = ids.map((id) => this.rowidOf(id));
        let least = rowids[0]!;
        let greatest = least;
        for (const r of rowids) {
          if (r < least) least = r;
          else if (r > greatest) greatest = r;
        }
        const bounds = { lo: BigInt(least), hi: BigInt(greatest) };
        return new Map(this.s[what].all({ q: ftsQuery, open, close, rowids: JSON.stringify(rowids), ...bounds, width }) as Array<[number, string]>);
      },
      vocabulary: () => this.vocabulary(),
    };
  }

  /** An indexed text's rowid: its id, then a bit per member edition showing it. */
  private rowidOf(id: number): number {
    return id * 2 ** this.width + (this.masks[id] ?? 0);
  }

  private vocabulary(): string[] {
    return (this.words ??= [...wordsOf(this.s.bodies.iterate() as IterableIterator<string>)]);
  }

  /** Frees the index. */
  close(): void {
    this.db.close();
  }
}
