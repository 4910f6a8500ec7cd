import { closeSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
import { findKeywords } from '../core/keywords.js';
import type {
  EditionInfo,
  Family,
  GlossaryRecord,
  HighlightMarks,
  KeywordRecord,
  PartRecord,
  RuleRecord,
  SearchHitKind,
  SearchHitRecord,
  TextRefRecord,
} from '../core/records.js';
import { citedTitle, titleMatches } from '../core/references.js';
import { resolveEdition } from '../core/resolveEdition.js';
import { inScope } from '../core/ruleNumber.js';
import { closestTerms, nearestNumbers, typoBudget } from '../core/suggest.js';
import { openImageDb, openReadOnlyDb, type Db } from '../db/openDb.js';
import { openVerifiedDb, type DbFile } from '../db/openVerifiedDb.js';
import { Snapshot } from '../db/Snapshot.js';
import type { EditionSearch } from '../db/TextIndex.js';
import { compareRuleText } from '../engine/compareRule.js';
import type { ChangeKind, EditionDiff } from '../engine/diffEditions.js';
import { ruleHistory, type RuleHistory } from '../engine/history.js';
import { loadDiff } from '../engine/loadDiff.js';
import { explainPairs, type PairReason } from '../engine/explainPairs.js';
import { glossaryHistory, type GlossaryHistory } from '../engine/glossaryHistory.js';
import type { RuleChange } from '../engine/diffEditions.js';
import { answerLookup, type LookupAnswer } from './answerLookup.js';
import { GlossaryMatcher, type GlossaryMention } from './GlossaryMatcher.js';
import { QueryError } from './QueryError.js';

/** An edition argument resolved: the edition, and whether the argument pinned it (answers never change). */
export interface ResolvedEdition {
  edition: EditionInfo;
  exact: boolean;
}

/** An edition as `crkb editions` lists it. */
export interface EditionSummary extends EditionInfo {
  rules: number;
  glossary: number;
  files: number;
  /** The source file whose text is stored, and its sha256 (provenance). */
  primaryFile: string | null;
  sha256: string | null;
}

/** One edition whole: rules in document order with their examples, and the glossary. */
export interface EditionExport {
  effectiveDate: string;
  rules: Array<{ number: string; parent: string | null; text: string; examples: string[] }>;
  glossary: Array<{ term: string; definition: string }>;
}

// The shapes of diff and history answers, for the edges (which read the engine only through this layer).
export type { ChangeKind, EditionDiff, ExampleChange, GlossaryChange, RuleChange } from '../engine/diffEditions.js';
export type { HistoryStep } from '../engine/history.js';
export type { DiffSegment } from '../engine/wordDiff.js';

/** Options of a diff. */
export interface DiffQuery {
  section?: string;
  kinds?: ChangeKind[];
  /** Word-level segments of changed texts (default true). */
  segments?: boolean;
  /** Rules only: no example or glossary changes. */
  rulesOnly?: boolean;
}

/** A split or merge a lineage took part in, as history shows it. */
export interface LineageLink {
  kind: 'split' | 'merge';
  date: string;
  number: string;
  lineage: number;
  prevDate: string;
  prevNumber: string;
  prevLineage: number;
}

/** A rule's history across editions: the engine's steps and the splits and merges it took part in. */
export interface RuleHistoryAnswer extends RuleHistory {
  links: LineageLink[];
}

/** A reference whose target is no rule, section or part of its edition. */
export interface DanglingRef {
  source: 'rule' | 'example' | 'glossary';
  /** The citing rule's number, or the glossary term. */
  at: string;
  target: string;
  kind: 'rule' | 'section' | 'part';
  /** The mention as it reads in the text. */
  mention: string;
}

/** A reference whose target exists but is not what its quoted title names. */
export interface StaleRef extends DanglingRef {
  /** The title the citation quotes. */
  cited: string;
  /** The target's own title (its text) in the edition. */
  title: string;
}

/** Options of a search. */
export interface SearchQuery {
  limit: number;
  /** Hits to skip (paging). */
  offset?: number;
  marks?: HighlightMarks;
  /** Escapes the text around the marks (HTML, Markdown). */
  escape?: (text: string) => string;
  /** Read the last word as a prefix (search as you type). */
  prefix?: boolean;
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
  score: number;
  /** Sort position: rules by document order, glossary entries after them. */
  ord: number;
  pos: number;
  exampleIndex: number;
  glossary: GlossaryRecord | null;
}

// Bytes a diff holds, roughly: its texts twice (before/after, two bytes a character) and some per change.
function diffBytes(d: EditionDiff): number {
  // texts are shared with the snapshot; what a diff adds is its objects and word segments
  const segs = (s: Array<{ text: string }> | undefined): number => (s ? s.reduce((n, x) => n + 64 + 2 * x.text.length, 0) : 0);
  let n = 1024 + 64 * d.renumbering.length;
  for (const c of d.changes) n += 300 + segs(c.segments);
  const chars = (ts: string[]): number => ts.reduce((k, t) => k + t.length, 0);
  for (const x of d.examples) n += 300 + 2 * (chars(x.before) + chars(x.after));
  for (const g of d.glossary) n += 300 + 2 * ((g.before?.length ?? 0) + (g.after?.length ?? 0)) + segs(g.segments);
  return n;
}

/** Bounds of a KnowledgeBase's caches. */
export interface KnowledgeBaseOptions {
  /** Bytes of diffs kept (default 8 MB). */
  diffCacheBytes?: number;
}

/**
 * The query layer: every read of the CLI, the API and the web pages, answered from one in-memory
 * snapshot of the database. Throws QueryError for bad arguments and missing rules; each edge
 * translates it once.
 */
export class KnowledgeBase {
  readonly snapshot: Snapshot;
  private readonly keywordMemo = new Map<number, KeywordRecord[]>();
  private readonly matchers = new Map<number, GlossaryMatcher>();
  private readonly diffs: LRUCache<string, EditionDiff>;

  constructor(
    readonly db: Db,
    opts: KnowledgeBaseOptions = {},
    /** The verified file it reads, held open (openVerified), or null. */
    readonly file: DbFile | null = null,
  ) {
    this.snapshot = new Snapshot(db);
    this.diffs = new LRUCache<string, EditionDiff>({ maxSize: opts.diffCacheBytes ?? 8 * 1024 * 1024, sizeCalculation: diffBytes });
  }

  /** Opens a database file read-only and loads it. */
  static open(file: string, opts: KnowledgeBaseOptions = {}): KnowledgeBase {
    return new KnowledgeBase(openReadOnlyDb(file), opts);
  }

  /** Opens a database file for serving: verified first (openVerifiedDb; throws DbRefused), held open, hashed. */
  static openVerified(file: string, opts: KnowledgeBaseOptions = {}): KnowledgeBase {
    const v = openVerifiedDb(file);
    try {
      return new KnowledgeBase(v.db, opts, v.file);
    } catch (e) {
      v.db.close();
      closeSync(v.file.fd);
      throw e;
    }
  }

  /** Loads a serialized database (made by `db.serialize()`), read-only in memory. */
  static openImage(image: Uint8Array, opts: KnowledgeBaseOptions = {}): KnowledgeBase {
    return new KnowledgeBase(openImageDb(image), opts);
  }

  /**
   * Builds what the first read of each edition, history, keyword lookups, searches and typo
   * corrections would build (a server does this at start, not in a request); `search: false`
   * leaves the search indexes to be built when first searched.
   */
  warm(opts: { search?: boolean } = {}): this {
    this.snapshot.loadAll();
    if (opts.search !== false) {
      for (const e of this.snapshot.editions) this.snapshot.searchOf(e.id).vocabulary();
      this.snapshot.words();
    }
    for (const e of this.snapshot.editions) this.keywords(e.id);
    return this;
  }

  /** Closes the database and frees the search indexes. */
  close(): void {
    this.snapshot.close();
    this.db.close();
    if (this.file) closeSync(this.file.fd);
  }

  // ---- editions

  /** Every stored edition, by family then date. */
  editions(): EditionInfo[] {
    return this.snapshot.editions;
  }

  /** An edition by id. */
  editionById(id: number): EditionInfo | null {
    return this.snapshot.editionById(id);
  }

  /** Resolves an edition argument (date, latest, set code, unofficial label) or throws BAD_INPUT. */
  resolveEdition(arg: string | null | undefined, family: Family = 'cr', argument = 'edition'): ResolvedEdition {
    const r = resolveEdition(this.snapshot.editions, arg, family);
    if (r.problem !== undefined) throw new QueryError('BAD_INPUT', r.problem, { argument });
    return { edition: r.edition, exact: r.exact };
  }

  /** Every edition of a family with its counts and source files, oldest first (`crkb editions`). */
  editionSummaries(family: Family = 'cr'): EditionSummary[] {
    return this.snapshot.editions
      .filter((e) => e.family === family)
      .map((e) => {
        const src = this.snapshot.sourcesOf(e.id);
        return {
          ...e,
          rules: this.ruleCount(e.id),
          glossary: this.glossary(e.id).length,
          files: src.files,
          primaryFile: src.primary?.path ?? null,
          sha256: src.primary?.sha256 ?? null,
        };
      });
  }

  /** One edition whole, as `crkb export` prints it and `/v1/editions/{edition}.json` serves it. */
  exportEdition(edition: EditionInfo): EditionExport {
    const rules: EditionExport['rules'] = [];
    for (let p = 0; p < this.ruleCount(edition.id); p++) {
      const r = this.snapshot.ruleAt(edition.id, p)!;
      rules.push({ number: r.number, parent: r.parent, text: r.text, examples: this.examples(r) });
    }
    return { effectiveDate: edition.effectiveDate, rules, glossary: this.glossary(edition.id).map((g) => ({ term: g.term, definition: g.definition })) };
  }

  /** Number of rules of an edition. */
  ruleCount(editionId: number): number {
    return this.snapshot.ruleCount(editionId);
  }

  /** Part headings of an edition. */
  parts(editionId: number): PartRecord[] {
    return this.snapshot.parts(editionId);
  }

  /** Ability words listed by an edition. */
  abilityWords(editionId: number): string[] {
    return this.snapshot.abilityWords(editionId);
  }

  // ---- rules

  /** A rule by number, or null. */
  rule(editionId: number, number: string): RuleRecord | null {
    return this.snapshot.ruleByNumber(editionId, number);
  }

  /** A rule by number, or NOT_FOUND with the nearest numbers of that edition. */
  ruleOrThrow(edition: EditionInfo, number: string): RuleRecord {
    const r = this.rule(edition.id, number);
    if (r) return r;
    throw new QueryError('NOT_FOUND', `no rule ${number} in the ${edition.effectiveDate} edition`, {
      suggestions: nearestNumbers(number, this.numbers(edition.id)),
      edition: edition.effectiveDate,
    });
  }

  /** Rules by number, in the order asked (null where missing). */
  rulesByNumbers(editionId: number, numbers: readonly string[]): Array<RuleRecord | null> {
    return numbers.map((n) => this.rule(editionId, n));
  }

  /** Every rule number of an edition, in document order. */
  numbers(editionId: number): string[] {
    return this.snapshot.numbers(editionId);
  }

  /** The rules below a rule (subrules at every depth), in document order. */
  descendants(rule: RuleRecord, limit = 2000): RuleRecord[] {
    const inside = new Set([rule.number]);
    const out: RuleRecord[] = [];
    for (let p = rule.ord + 1; out.length < limit; p++) {
      const r = this.snapshot.ruleAt(rule.editionId, p);
      if (!r || r.parent === null || !inside.has(r.parent)) break;
      inside.add(r.number);
      out.push(r);
    }
    return out;
  }

  /** Direct children of a rule, in document order. */
  children(rule: RuleRecord): RuleRecord[] {
    return this.descendants(rule, Infinity).filter((r) => r.parent === rule.number);
  }

  /** Direct children of several rules of one edition, by parent number. */
  childrenOf(editionId: number, numbers: readonly string[]): Map<string, RuleRecord[]> {
    return new Map(
      numbers.map((n) => {
        const r = this.rule(editionId, n);
        return [n, r ? this.children(r) : []];
      }),
    );
  }

  /** The enclosing rules of a rule, nearest first. */
  ancestors(rule: RuleRecord): RuleRecord[] {
    const out: RuleRecord[] = [];
    const seen = new Set<string>();
    let parent = rule.parent;
    while (parent !== null && !seen.has(parent)) {
      seen.add(parent);
      const r = this.rule(rule.editionId, parent);
      if (!r) break;
      out.push(r);
      parent = r.parent;
    }
    return out;
  }

  /**
   * The rules of the same kind just before and after a rule, skipping what lies between
   * (702.19 → 702.18 and 702.20; 702.19b → 702.19a and 702.19c; 702 → 701 and 703).
   */
  adjacent(rule: RuleRecord): { previous: RuleRecord | null; next: RuleRecord | null } {
    const find = (step: 1 | -1): RuleRecord | null => {
      for (let p = rule.ord + step; ; p += step) {
        const r = p >= 0 ? this.snapshot.ruleAt(rule.editionId, p) : null;
        if (!r || r.kind === rule.kind) return r;
      }
    };
    return { previous: find(-1), next: find(1) };
  }

  /** The rules just before and after a rule in document order. */
  neighbours(rule: RuleRecord): { previous: RuleRecord | null; next: RuleRecord | null } {
    return { previous: rule.ord > 0 ? this.snapshot.ruleAt(rule.editionId, rule.ord - 1) : null, next: this.snapshot.ruleAt(rule.editionId, rule.ord + 1) };
  }

  /**
   * A page of rules in document order after position `after`. `section` keeps one part ("7"),
   * section ("702") or rule ("702.19") with everything below it.
   */
  rulesPage(editionId: number, opts: { section?: string | null; after?: number; limit: number }): RuleRecord[] {
    const section = opts.section ?? null;
    const keep = (n: string): boolean => section === null || inScope(n, section);
    const out: RuleRecord[] = [];
    const count = this.ruleCount(editionId);
    const numbers = this.numbers(editionId);
    for (let p = Math.max(0, (opts.after ?? -1) + 1); p < count && out.length < opts.limit; p++) {
      if (keep(numbers[p]!)) out.push(this.snapshot.ruleAt(editionId, p)!);
    }
    return out;
  }

  /** Section rules of an edition ("702" → "Keyword Abilities"). */
  sections(editionId: number): Array<{ number: string; title: string }> {
    const out: Array<{ number: string; title: string }> = [];
    this.numbers(editionId).forEach((n, p) => {
      // CR sections are numbered without a dot ("702"); the Rulings Summaries' are not numbers ("E.13")
      if (n.includes('.') && /^\d/.test(n)) return;
      const r = this.snapshot.ruleAt(editionId, p)!;
      if (r.kind === 'section') out.push({ number: r.number, title: r.text });
    });
    return out;
  }

  /** Texts by id. */
  texts(ids: Iterable<number>): Map<number, string> {
    return this.snapshot.texts(ids);
  }

  /** The "Note - …" paragraphs of a Rulings Summaries section, as published ([] for the CR). */
  notes(rule: RuleRecord): string[] {
    return this.snapshot.notesOf(rule.editionId, rule.number);
  }

  /** Example texts of a rule, in published order. */
  examples(rule: RuleRecord): string[] {
    return rule.exampleIds.map((id) => this.snapshot.text(id));
  }

  // ---- references

  /** Stored references of several texts, by text id, in text order. */
  refsOfTexts(ids: readonly number[]): Map<number, TextRefRecord[]> {
    return new Map(ids.map((id) => [id, this.snapshot.refsOfText(id)]));
  }

  /** Rules of an edition whose text or examples cite each number, by cited number, in document order. */
  citing(editionId: number, numbers: readonly string[]): Map<string, RuleRecord[]> {
    return new Map(
      numbers.map((n) => {
        const positions = new Set<number>();
        for (const t of this.snapshot.textsCitingNumber(n)) {
          for (const p of this.snapshot.positionsUsingText(editionId, t, 'text')) positions.add(p);
          for (const p of this.snapshot.positionsUsingText(editionId, t, 'example')) positions.add(p);
        }
        return [n, [...positions].sort((a, b) => a - b).map((p) => this.snapshot.ruleAt(editionId, p)!)];
      }),
    );
  }

  /** Glossary entries of an edition citing each number. */
  glossaryCiting(editionId: number, numbers: readonly string[]): Map<string, GlossaryRecord[]> {
    return new Map(
      numbers.map((n) => {
        const out = this.snapshot.textsCitingNumber(n).flatMap((t) => this.snapshot.glossaryUsingText(editionId, t));
        return [n, out.sort((a, b) => a.ord - b.ord)];
      }),
    );
  }

  /** Every reference of an edition's texts (rule texts, examples, glossary definitions), in document order. */
  private eachRef(editionId: number, f: (source: DanglingRef['source'], at: string, text: string, ref: TextRefRecord) => void): void {
    const each = (source: DanglingRef['source'], at: string, textId: number): void => {
      const refs = this.snapshot.refsOfText(textId);
      if (refs.length === 0) return;
      const text = this.snapshot.text(textId);
      for (const r of refs) f(source, at, text, r);
    };
    for (let p = 0; p < this.ruleCount(editionId); p++) {
      const r = this.snapshot.ruleAt(editionId, p)!;
      each('rule', r.number, r.textId);
      for (const x of r.exampleIds) each('example', r.number, x);
    }
    for (const g of this.glossary(editionId)) each('glossary', g.term, g.textId);
  }

  /** References of an edition (rule texts, examples, glossary) that resolve to nothing in it. */
  dangling(editionId: number): DanglingRef[] {
    const numbers = new Set(this.numbers(editionId));
    const parts = new Set(this.parts(editionId).map((p) => p.number));
    const out: DanglingRef[] = [];
    this.eachRef(editionId, (source, at, text, r) => {
      if (numbers.has(r.target) || (r.kind === 'part' && parts.has(r.target))) return;
      out.push({ source, at, target: r.target, kind: r.kind, mention: text.slice(r.start, r.end) });
    });
    return out;
  }

  /** References whose quoted title no longer names their (existing) target ("rule 727, "Day and Night"" when 727 is another rule). */
  staleRefs(editionId: number): StaleRef[] {
    const parts = new Map(this.parts(editionId).map((p) => [p.number, p.title]));
    const out: StaleRef[] = [];
    this.eachRef(editionId, (source, at, text, r) => {
      const after = text.slice(r.end, r.end + 4);
      if (!after.includes('"') && !after.includes('“')) return;
      const title = r.kind === 'part' ? parts.get(r.target) : this.rule(editionId, r.target)?.text;
      if (title === undefined) return;
      const cited = citedTitle(text, r.end);
      if (cited === null || titleMatches(cited, title)) return;
      out.push({ source, at, target: r.target, kind: r.kind, mention: text.slice(r.start, r.end), cited, title });
    });
    return out;
  }

  // ---- glossary and keywords

  /** A glossary entry by term (case and typography folded: see termKey), or null. */
  glossaryTerm(editionId: number, term: string): GlossaryRecord | null {
    return this.snapshot.glossaryEntry(editionId, term);
  }

  /** A glossary entry by term, or NOT_FOUND with the closest terms. */
  glossaryTermOrThrow(edition: EditionInfo, term: string): GlossaryRecord {
    const g = this.glossaryTerm(edition.id, term);
    if (g) return g;
    const terms = this.glossary(edition.id).map((x) => x.term);
    throw new QueryError('NOT_FOUND', `no glossary term "${term.slice(0, 60)}" in the ${edition.effectiveDate} edition`, {
      suggestions: closestTerms(term, terms, 5, 4).map((s) => s.value),
      edition: edition.effectiveDate,
    });
  }

  /** Every glossary entry of an edition, in published order. */
  glossary(editionId: number): GlossaryRecord[] {
    return this.snapshot.glossary(editionId);
  }

  /** Glossary terms of an edition used in a text (see GlossaryMatcher); `skip` leaves out one entry. */
  glossaryMentions(editionId: number, text: string, skip?: GlossaryRecord): GlossaryMention[] {
    let m = this.matchers.get(editionId);
    if (!m) {
      m = new GlossaryMatcher(this.glossary(editionId));
      this.matchers.set(editionId, m);
    }
    return m.mentions(text, skip);
  }

  /** Keyword abilities and actions of an edition (see core/keywords). */
  keywords(editionId: number): KeywordRecord[] {
    let k = this.keywordMemo.get(editionId);
    if (!k) {
      k = findKeywords(this.sections(editionId), (n) => this.childrenOf(editionId, [n]).get(n) ?? []).map((x) => ({ ...x, editionId }));
      this.keywordMemo.set(editionId, k);
    }
    return k;
  }

  // ---- search

  /**
   * Full-text search within one edition: bm25-ranked hits over rule texts, examples and glossary
   * definitions, with snippet and highlight marks. `text` is user text, quoted word by word (never
   * read as FTS syntax). All words must match; a word no text has is read as the nearest indexed
   * word (a typo); when no text has all the words, any word may.
   */
  search(editionId: number, text: string, opts: SearchQuery): SearchHitRecord[] {
    if (text.length > MAX_SEARCH_LENGTH) {
      throw new QueryError('BAD_INPUT', `the search text is longer than ${MAX_SEARCH_LENGTH} characters`, { argument: 'query' });
    }
    const offset = opts.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0 || offset > MAX_SEARCH_OFFSET) {
      throw new QueryError('BAD_INPUT', `a search can be paged up to hit ${MAX_SEARCH_OFFSET}`, { argument: 'after' });
    }
    const words = (text.match(TOKEN_RE) ?? []).slice(0, 32);
    if (words.length === 0 || opts.limit <= 0) return [];
    const query = (ws: string[], join: string): string => ws.map((w, i) => (opts.prefix && i === ws.length - 1 ? `${quote(w)}*` : quote(w))).join(join);
    const index = this.snapshot.searchOf(editionId);
    let fts = query(words, ' ');
    let places = this.places(editionId, index, fts, offset + opts.limit);
    if (places.length === 0) {
      const fixed = this.correctTypos(index, words, opts.prefix === true);
      if (fixed) {
        fts = query(fixed, ' ');
        places = this.places(editionId, index, fts, offset + opts.limit);
      }
      // the same choice on every page: OR only when no text has all the words
      if (places.length === 0 && words.length > 1) {
        fts = query(fixed ?? words, ' OR ');
        places = this.places(editionId, index, fts, offset + opts.limit);
      }
    }
    const page = places.slice(offset, offset + opts.limit);
    if (page.length === 0) return [];
    const wanted = opts.marks ?? { open: '<mark>', close: '</mark>' };
    // With `escape`, texts are marked with private-use characters, escaped, then given the real marks.
    const escape = opts.escape;
    const marks = escape ? { open: '\ue000', close: '\ue001' } : wanted;
    const finish = (m: string): string => (escape ? escape(m).replaceAll('\ue000', wanted.open).replaceAll('\ue001', wanted.close) : m);
    const ids = [...new Set(page.map((p) => p.textId))];
    // Snippets and highlights are made for the whole page on first use: many callers read neither.
    const marked: { snippet?: Map<number, string>; highlight?: Map<number, string> } = {};
    const markOf = (id: number, what: 'snippet' | 'highlight') => (marked[what] ??= index.marks(fts, ids, marks.open, marks.close, what)).get(id);
    return page.map((p) => {
      const kind: SearchHitKind = p.glossary ? 'glossary' : p.exampleIndex >= 0 ? 'example' : 'rule';
      return {
        kind,
        textId: p.textId,
        score: p.score,
        rule: p.glossary ? null : this.snapshot.ruleAt(editionId, p.pos),
        exampleIndex: p.exampleIndex >= 0 ? p.exampleIndex : null,
        glossary: p.glossary,
        get snippet() {
          return finish(markOf(p.textId, 'snippet') ?? '');
        },
        get highlighted() {
          return finish(markOf(p.textId, 'highlight') ?? '');
        },
      };
    });
  }

  /** The places of the best-ranked texts of an edition: at least `wanted`, and every text tied with the last. */
  private places(editionId: number, index: EditionSearch, fts: string, wanted: number): Place[] {
    // Every matching text has a place in the edition, so `wanted` texts (plus one, to see a tie) usually do.
    for (let limit = wanted + 1; ; limit *= 4) {
      const rows = index.matches(fts, limit);
      const out: Place[] = [];
      let last = Infinity;
      let complete = rows.length < limit;
      for (const [textId, score] of rows) {
        if (out.length >= wanted && score > last) {
          complete = true;
          break;
        }
        for (const pos of this.snapshot.positionsUsingText(editionId, textId, 'text'))
          out.push({ textId, score, ord: pos, pos, exampleIndex: -1, glossary: null });
        for (const pos of this.snapshot.positionsUsingText(editionId, textId, 'example')) {
          const r = this.snapshot.ruleAt(editionId, pos)!;
          r.exampleIds.forEach((x, i) => {
            if (x === textId) out.push({ textId, score, ord: pos, pos, exampleIndex: i, glossary: null });
          });
        }
        for (const g of this.snapshot.glossaryUsingText(editionId, textId))
          out.push({ textId, score, ord: 1_000_000 + g.ord, pos: -1, exampleIndex: -1, glossary: g });
        last = score;
      }
      if (complete) return out.sort((a, b) => a.score - b.score || a.ord - b.ord || a.exampleIndex - b.exampleIndex);
    }
  }

  /**
   * The words with each one no text holds (in any edition: a word of another edition is no typo)
   * replaced by the edition's closest word, or null when none changed.
   */
  private correctTypos(index: EditionSearch, words: string[], prefix: boolean): string[] | null {
    let changed = false;
    const out = words.map((w, i) => {
      if (w.length < 4 || /\d/.test(w) || (prefix && i === words.length - 1)) return w;
      if (index.matchesAny(quote(w)) || this.snapshot.words().has(w.toLowerCase())) return w;
      const best = closestTerms(w.toLowerCase(), index.vocabulary(), 1, typoBudget(w))[0];
      if (!best) return w;
      changed = true;
      return best.value;
    });
    return changed ? out : null;
  }

  // ---- diffs and history

  /** Changes between two editions (any two; `from` may be later than `to`), kept in a bounded cache. */
  diff(from: EditionInfo, to: EditionInfo, opts: DiffQuery = {}): EditionDiff {
    const key = JSON.stringify([from.id, to.id, opts.section ?? '', opts.kinds ?? [], opts.segments ?? true, opts.rulesOnly ?? false]);
    const hit = this.diffs.get(key);
    if (hit) return hit;
    const d = loadDiff(this.snapshot, from, to, opts);
    this.diffs.set(key, d);
    return d;
  }

  /** Why a diff paired each rule: the aligner's method and score (neighbouring editions), or the alignment steps between. */
  explain(from: EditionInfo, to: EditionInfo): (c: RuleChange) => PairReason | null {
    if (!this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lineage_pairs'`).get()) {
      throw new QueryError('BAD_INPUT', 'this database was built before the aligner recorded why it paired rules: ingest it again to explain diffs', {
        argument: '--explain',
      });
    }
    return explainPairs(this.db, from, to, from.family);
  }

  /** The lineage id of a rule number in an edition (negative for a rule never aligned), or null. */
  private lineageAt(editionId: number, number: string): number | null {
    const r = this.rule(editionId, number);
    return r ? this.snapshot.ruleIds(editionId).lineages[r.ord]! : null;
  }

  /** A rule's history across the official editions of its family, or null when the edition has no such rule. */
  history(edition: EditionInfo, number: string): RuleHistoryAnswer | null {
    const lineage = this.lineageAt(edition.id, number);
    if (lineage === null) return null;
    const chain = this.snapshot.editions.filter((e) => e.family === edition.family && e.official);
    const inChain = new Set(chain.map((e) => e.id));
    const places = this.snapshot.lineagePlaces(lineage).filter(([e]) => inChain.has(e));
    const rows = places.map(([e, pos]) => {
      const r = this.snapshot.ruleAt(e, pos)!;
      return { editionId: e, date: this.editionById(e)!.effectiveDate, number: r.number, text: r.text, lineage, examples: this.examples(r) };
    });
    if (rows.length === 0) {
      const r = this.rule(edition.id, number)!;
      rows.push({ editionId: edition.id, date: edition.effectiveDate, number: r.number, text: r.text, lineage, examples: this.examples(r) });
    }
    const editionOf = new Map(rows.map((r) => [r.date, r.editionId]));
    const resolver = (date: string) => {
      const eid = editionOf.get(date)!;
      return (target: string): number | null => this.lineageAt(eid, target);
    };
    const h = ruleHistory(
      rows,
      chain.map((e) => e.effectiveDate),
      (prev, cur) => compareRuleText(prev.text, cur.text, resolver(prev.date), resolver(cur.date)).textChange,
    );
    if (!h) return null;
    return { ...h, links: this.linksOf(lineage) };
  }

  /** Splits and merges a lineage took part in, oldest first. */
  private linksOf(lineage: number): LineageLink[] {
    const out: LineageLink[] = [];
    for (const l of this.snapshot.lineageLinks()) {
      const a = this.snapshot.ruleIds(l.editionId).lineages[l.pos];
      const b = this.snapshot.ruleIds(l.prevEditionId).lineages[l.prevPos];
      if (a !== lineage && b !== lineage) continue;
      out.push({
        kind: l.kind,
        date: this.editionById(l.editionId)!.effectiveDate,
        number: this.snapshot.numbers(l.editionId)[l.pos]!,
        lineage: a!,
        prevDate: this.editionById(l.prevEditionId)!.effectiveDate,
        prevNumber: this.snapshot.numbers(l.prevEditionId)[l.prevPos]!,
        prevLineage: b!,
      });
    }
    return out.sort((x, y) => x.date.localeCompare(y.date));
  }

  /** A glossary term's history across the official editions (renamings followed), or null when no edition (or `at`) has it. */
  glossaryHistory(term: string, at: EditionInfo | null = null, family: Family = 'cr'): GlossaryHistory | null {
    const chain = this.snapshot.editions.filter((e) => e.family === family && e.official && this.glossary(e.id).length > 0);
    const idOf = new Map(chain.map((e) => [e.effectiveDate, e.id]));
    return glossaryHistory(
      chain.map((e) => ({ date: e.effectiveDate, entries: this.glossary(e.id).map((g) => ({ term: g.term, definition: g.definition })) })),
      term,
      (date) => (target) => this.lineageAt(idOf.get(date)!, target),
      at?.effectiveDate,
    );
  }

  /** Official editions of a family in which a rule number appears, oldest first. */
  editionsWithNumber(number: string, family: Family = 'cr'): EditionInfo[] {
    return this.snapshot.editions.filter((e) => e.family === family && e.official && this.rule(e.id, number) !== null);
  }

  /** Every rule number of every edition. */
  allNumbers(): string[] {
    return this.snapshot.allNumbers();
  }

  // ---- lookup

  /** A bot's lookup: a number, a range, a keyword, a glossary term or a misspelling (see answerLookup). */
  lookup(edition: EditionInfo, q: string): LookupAnswer {
    return answerLookup(this, edition, q);
  }
}
