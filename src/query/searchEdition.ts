import type { GlossaryRecord, HighlightMarks, RuleRecord, SearchHitKind, SearchHitRecord } from '../core/records.js';
import { closestTerms, typoBudget } from '../core/suggest.js';
import type { Snapshot } from '../db/Snapshot.js';
import type { TextIndex } from '../db/TextIndex.js';
import { QueryError } from './QueryError.js';

/** Options of a search. */
export interface SearchQuery {
  limit: number;
  /** Hits to skip (paging). */
  offset?: number;
  marks?: HighlightMarks;
  /** Escapes the text around the marks (HTML, Markdown). */
  escape?: (text: string) => string;
  /** Read the last word as a prefix (search as you type), unless the edition has it as a whole word. */
  prefix?: boolean;
  /** false: search the words as typed, never reading a misspelt word as the edition's closest one. */
  correct?: boolean;
}

/** The deepest page a search may ask for. */
export const MAX_SEARCH_OFFSET = 10_000;
/** Longest search text accepted, in characters. */
export const MAX_SEARCH_LENGTH = 500;

/** A word as an FTS5 string: never read as query syntax. */
const quote = (w: string): string => `"${w.replace(/"/g, '""')}"`;

/** Unicode letters and digits: what the FTS tokenizer keeps. */
const TOKEN_RE = /[\p{L}\p{N}]+/gu;

/** Where a text sits in an edition: a rule's text, one of its examples, or a glossary definition. */
interface Place {
  textId: number;
  /** Which block of BLOCK texts in bm25 order the text is in: the weighing reorders within a block. */
  block: number;
  score: number;
  /** Sort position: rules by document order, glossary entries after them. */
  ord: number;
  pos: number;
  exampleIndex: number;
  glossary: GlossaryRecord | null;
}

/**
 * Full-text search within one edition: bm25-ranked hits over rule texts, examples and glossary
 * definitions, with snippet and highlight marks. `text` is user text, quoted word by word (never
 * read as FTS syntax). All words must match; a word no text has is read as the nearest indexed
 * word (a typo); when no text has all the words, any word may.
 */
export function searchEdition(s: Snapshot, editionId: number, text: string, opts: SearchQuery): SearchHitRecord[] {
  return runSearch(s, editionId, text, opts).hits;
}

/** Texts a search's count reads at most: the count says "more than" past them (as deep as a search may page). */
const MAX_SEARCH_COUNT = MAX_SEARCH_OFFSET;

/** A page of hits, and how many hits the search has in all (`capped`: at least `total`, when more than MAX_SEARCH_COUNT texts match). */
export interface CountedSearch {
  hits: SearchHitRecord[];
  total: number;
  capped: boolean;
}

/** searchEdition with the number of all its hits: the matching texts (no ranking) counted at every place the edition shows them. */
export function countedSearch(s: Snapshot, editionId: number, text: string, opts: SearchQuery): CountedSearch {
  const { hits, fts, all } = runSearch(s, editionId, text, opts);
  if (fts === null) return { hits, total: 0, capped: false };
  // the ranking read every matching text: its places are the count
  if (all !== null) return { hits, total: all, capped: false };
  const index = s.searchOf(editionId);
  const ids = index.ids(fts, MAX_SEARCH_COUNT + 1);
  const { start } = index.places;
  let total = 0;
  for (const id of ids.slice(0, MAX_SEARCH_COUNT)) {
    const k = index.places.find(id);
    if (k >= 0) total += start[k + 1]! - start[k]!;
  }
  return { hits, total, capped: ids.length > MAX_SEARCH_COUNT };
}

/** A search's page, its FTS query, and the number of all its places when the ranking read every matching text (else null). */
function runSearch(s: Snapshot, editionId: number, text: string, opts: SearchQuery): { hits: SearchHitRecord[]; fts: string | null; all: number | null } {
  if (text.length > MAX_SEARCH_LENGTH) {
    throw new QueryError('BAD_INPUT', `the search text is longer than ${MAX_SEARCH_LENGTH} characters`, { argument: 'query' });
  }
  const offset = opts.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_SEARCH_OFFSET) {
    throw new QueryError('BAD_INPUT', `a search can be paged up to hit ${MAX_SEARCH_OFFSET}`, { argument: 'after' });
  }
  const words = (text.match(TOKEN_RE) ?? []).slice(0, 32);
  if (words.length === 0 || opts.limit <= 0) return { hits: [], fts: null, all: null };
  const index = s.searchOf(editionId);
  // as you type, a last word the edition has whole is read as typed: the live results of a finished query are the page's
  const prefix = opts.prefix === true && !index.matchesAny(quote(words.at(-1)!));
  const query = (ws: string[], join: string): string => ws.map((w, i) => (prefix && i === ws.length - 1 ? `${quote(w)}*` : quote(w))).join(join);
  let fts = query(words, ' ');
  const depth = offset + opts.limit;
  let ranked = placesOf(s, editionId, index, fts, depth, words);
  let correctedQuery: string | null = null;
  if (ranked.places.length === 0) {
    const fixed = opts.correct === false ? null : correctTypos(s, index, words, prefix);
    if (fixed) {
      fts = query(fixed, ' ');
      ranked = placesOf(s, editionId, index, fts, depth, fixed);
      correctedQuery = fixed.join(' ');
    }
    // the same choice on every page: OR only when no text has all the words
    if (ranked.places.length === 0 && words.length > 1) {
      fts = query(fixed ?? words, ' OR ');
      ranked = placesOf(s, editionId, index, fts, depth, fixed ?? words);
    }
  }
  const all = ranked.complete ? ranked.places.length : null;
  const page = ranked.places.slice(offset, offset + opts.limit);
  if (page.length === 0) return { hits: [], fts, all };
  // (a page's few texts: a list, not a set)
  const ids: number[] = [];
  for (const p of page) if (!ids.includes(p.textId)) ids.push(p.textId);
  const marks = new PageMarks(index, fts, ids, opts.marks ?? DEFAULT_MARKS, opts.escape);
  const hits = page.map(
    (p): SearchHitRecord =>
      new SearchHit(
        p.glossary ? 'glossary' : p.exampleIndex >= 0 ? 'example' : 'rule',
        p.textId,
        p.score,
        p.glossary ? null : s.ruleAt(editionId, p.pos),
        p.exampleIndex >= 0 ? p.exampleIndex : null,
        p.glossary,
        correctedQuery,
        marks,
      ),
  );
  return { hits, fts, all };
}

const DEFAULT_MARKS: HighlightMarks = { open: '<mark>', close: '</mark>' };
/** With an `escape`, texts are marked with these private-use characters, escaped, then given the real marks. */
const PRIVATE_MARKS: HighlightMarks = { open: '\ue000', close: '\ue001' };

/** A page's snippets and highlights, each made for the whole page on first use: many callers read neither. */
class PageMarks {
  private snippets: Map<number, string> | null = null;
  private highlights: Map<number, string> | null = null;

  constructor(
    private readonly index: TextIndex,
    private readonly fts: string,
    private readonly ids: readonly number[],
    private readonly wanted: HighlightMarks,
    private readonly escape: ((text: string) => string) | undefined,
  ) {}

  /** A text's snippet or highlight, marked (and escaped). */
  of(textId: number, what: 'snippet' | 'highlight'): string {
    const map = what === 'snippet' ? (this.snippets ??= this.read(what)) : (this.highlights ??= this.read(what));
    const m = map.get(textId) ?? '';
    const escape = this.escape;
    return escape ? escape(m).replaceAll(PRIVATE_MARKS.open, this.wanted.open).replaceAll(PRIVATE_MARKS.close, this.wanted.close) : m;
  }

  private read(what: 'snippet' | 'highlight'): Map<number, string> {
    const marks = this.escape ? PRIVATE_MARKS : this.wanted;
    return this.index.marks(this.fts, this.ids, marks.open, marks.close, what);
  }
}

/**
 * A search hit: snippet and highlighted are read from the page's marks when asked for (getters of the
 * class, not of each hit: an object literal with accessors costs about a microsecond to make).
 */
class SearchHit implements SearchHitRecord {
  // (a # field: neither an own property a spread or JSON copies, nor one a caller sees)
  readonly #marks: PageMarks;

  constructor(
    readonly kind: SearchHitKind,
    readonly textId: number,
    readonly score: number,
    readonly rule: RuleRecord | null,
    readonly exampleIndex: number | null,
    readonly glossary: GlossaryRecord | null,
    readonly correctedQuery: string | null,
    marks: PageMarks,
  ) {
    this.#marks = marks;
  }

  get snippet(): string {
    return this.#marks.of(this.textId, 'snippet');
  }

  get highlighted(): string {
    return this.#marks.of(this.textId, 'highlight');
  }
}

/** How much a title's match counts more than a rule text's; examples count less (see placesOf). */
const TITLE_WEIGHT = 1.5;
const EXAMPLE_WEIGHT = 0.6;

/** A rule whose text is only a name: a section's or a keyword's title ("Trample", "Combat Damage Step"). */
const isTitle = (text: string): boolean => text.length <= 60 && !text.includes('.') && !text.includes(':') && !text.includes(';');

/** Per snapshot, a byte per text id: 1 a title (isTitle), 2 not, 0 not read yet. */
const titleBytes = new WeakMap<Snapshot, Uint8Array>();

/**
 * Whether a text is a title, each text read once a snapshot: a search weighs two dozen texts, and
 * reading each through the text cache (a map, its order kept, the text) cost more than the weighing.
 */
function isTitleText(s: Snapshot, textId: number): boolean {
  let bytes = titleBytes.get(s);
  if (bytes === undefined || textId >= bytes.length) {
    const grown = new Uint8Array(Math.max(1024, 2 ** Math.ceil(Math.log2(textId + 1))));
    if (bytes) grown.set(bytes);
    titleBytes.set(s, (bytes = grown));
  }
  if (bytes[textId] === 0) bytes[textId] = isTitle(s.text(textId)) ? 1 : 2;
  return bytes[textId] === 1;
}

/** The glossary term without a trailing "(Obsolete)", lower case: what a search for the term types. */
const plainTerm = (term: string): string => term.replace(/\s*\(.*\)$/, '').toLowerCase();

/** The order of places: by block, then weighed score, then document order. */
const byRank = (a: Place, b: Place): number => a.block - b.block || a.score - b.score || a.ord - b.ord || a.exampleIndex - b.exampleIndex;

/** Texts ranked together by where their match is: bm25 decides between blocks, the weighing within one. */
const BLOCK = 24;

/**
 * The places of the best-ranked texts of an edition, ranked by where the match is: the glossary
 * entry whose term is the words searched for first, titles above rule texts, rule texts above
 * examples (bm25 alone puts a short example repeating a word above the rule defining it). The
 * weighing reorders blocks of BLOCK texts in bm25 order, so every page agrees, whatever its depth,
 * and a common word reads no more texts than its pages show. At least `wanted` places.
 */
function placesOf(
  s: Snapshot,
  editionId: number,
  index: TextIndex,
  fts: string,
  wanted: number,
  words: readonly string[],
): { places: Place[]; complete: boolean } {
  const asked = words.join(' ').toLowerCase();
  const { start, pos: at, example } = index.places;
  for (let limit = BLOCK * Math.ceil((wanted + 1) / BLOCK); ; limit *= 4) {
    const rows = index.matches(fts, limit);
    const out: Place[] = [];
    // bm25 scores are negative, lower is better: a weight above 1 raises a place
    const best = (rows[0]?.[1] ?? 0) * TITLE_WEIGHT - 1;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      const textId = row[0];
      const score = row[1];
      const block = Math.floor(k / BLOCK);
      const t = index.places.find(textId);
      if (t < 0) continue;
      for (let j = start[t]!; j < start[t + 1]!; j++) {
        const pos = at[j]!;
        const exampleIndex = example[j]!;
        if (pos >= 0 && exampleIndex < 0) {
          // the rules printing the text are titles or not alike: their text is this one
          const weighed = isTitleText(s, textId) ? score * TITLE_WEIGHT : score;
          out.push({ textId, block, score: weighed, ord: pos, pos, exampleIndex, glossary: null });
        } else if (pos >= 0) {
          out.push({ textId, block, score: score * EXAMPLE_WEIGHT, ord: pos, pos, exampleIndex, glossary: null });
        } else {
          const g = s.glossaryAt(editionId, -1 - pos)!;
          const exact = block === 0 && plainTerm(g.term) === asked;
          out.push({ textId, block, score: exact ? best : score, ord: 1_000_000 + g.ord, pos: -1, exampleIndex: -1, glossary: g });
        }
      }
    }
    if (rows.length < limit || out.length >= wanted) {
      // every matching text read (fewer than asked for): the places are all the search's places
      return { places: out.sort(byRank), complete: rows.length < limit };
    }
  }
}

/**
 * The words with each one no text holds (in any edition: a word of another edition is no typo)
 * replaced by the edition's closest word, or null when none changed.
 */
function correctTypos(s: Snapshot, index: TextIndex, words: string[], prefix: boolean): string[] | null {
  let changed = false;
  const out = words.map((w, i) => {
    if (w.length < 4 || /\d/.test(w) || (prefix && i === words.length - 1)) return w;
    // the word list first: a set lookup, where asking the index is a query
    if (s.words().has(w.toLowerCase()) || index.matchesAny(quote(w))) return w;
    const best = closestTerms(w.toLowerCase(), index.vocabulary(), 1, typoBudget(w))[0];
    if (!best) return w;
    changed = true;
    return best.value;
  });
  return changed ? out : null;
}
