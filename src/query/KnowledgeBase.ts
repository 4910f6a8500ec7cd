import { closeSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
import { findKeywords } from '../core/keywords.js';
import type { EditionInfo, Family, GlossaryRecord, KeywordRecord, PartRecord, RuleRecord, SearchHitRecord, TextRefRecord } from '../core/records.js';
import { editionInForce as inForceOn, resolveEdition } from '../core/resolveEdition.js';
import { closestTerms, nearestNumbers } from '../core/suggest.js';
import { openImageDb, openReadOnlyDb, type Db } from '../db/openDb.js';
import { openHeldDb, openVerifiedDb, type DbFile } from '../db/openVerifiedDb.js';
import { Snapshot } from '../db/Snapshot.js';
import type { EditionDiff, RuleChange } from '../engine/diffEditions.js';
import { explainPairs, type PairReason } from '../engine/explainPairs.js';
import type { GlossaryHistory } from '../engine/glossaryHistory.js';
import { familyInQuery } from './familyQuery.js';
import { DOCUMENT_FAMILIES } from '../core/families.js';
import { isPolicyFamily, splitUnitText } from '../core/policyUnit.js';
import { refTarget } from '../core/policyReferences.js';
import { UnitParts, type UnitPartRecord } from '../db/UnitParts.js';

/** A tournament document's unit as read: its heading (title, penalty), body and an IPG infraction's named parts. */
export interface PolicyUnit {
  title: string;
  penalty: string | null;
  body: string;
  parts: UnitPartRecord[];
}
import { answerLookup, searchScope, type LookupAnswer } from './answerLookup.js';
import { DiffCache, type DiffQuery, type SegmentRanges } from './DiffCache.js';
import { editionSummaries, exportEdition, type EditionExport, type EditionSummary } from './editionSummaries.js';
import { citing, danglingRefs, glossaryCiting, staleRefs, type DanglingRef, type StaleRef } from './editionReferences.js';
import { GlossaryMatcher, type GlossaryMention } from './GlossaryMatcher.js';
import { newerKnownOf, staleData, type KnownEdition, type NewerKnown } from './knownEditions.js';
import { publishedFile, type PublishedFile } from './publishedFile.js';
import { QueryError } from './QueryError.js';
import { ruleHistoryOf, termHistoryOf, type RuleHistoryAnswer } from './ruleHistories.js';
import { adjacent, ancestors, children, childrenOf, descendants, rulesPage, sections, subtreeSize } from './ruleTree.js';
import { countedSearch, searchEdition, type CountedSearch, type SearchQuery } from './searchEdition.js';

/** Editions whose keywords and glossary matcher are kept built (the newest at start, then the latest used). */
const EDITION_MEMO = 32;

/** An edition argument resolved: the edition, and whether the argument pinned it (answers never change). */
export interface ResolvedEdition {
  edition: EditionInfo;
  exact: boolean;
}

// The shapes of diff and history answers, for the edges (which read the engine only through this layer).
export type { ChangeKind, EditionDiff, RuleChange } from '../engine/diffEditions.js';
export type { HistoryStep } from '../engine/history.js';
export type { DiffSegment } from '../engine/wordDiff.js';
// The shapes of the answers the split modules give (see the class below).
export type { DiffQuery, SegmentRanges } from './DiffCache.js';
export type { EditionExport, EditionSummary } from './editionSummaries.js';
export type { DanglingRef, StaleRef } from './editionReferences.js';
export type { RuleHistoryAnswer } from './ruleHistories.js';
export { MAX_SEARCH_LENGTH, MAX_SEARCH_OFFSET, type SearchQuery } from './searchEdition.js';

/** Bounds of a KnowledgeBase's caches. */
export interface KnowledgeBaseOptions {
  /** Bytes of diffs kept (default 8 MB). */
  diffCacheBytes?: number;
  /** Bytes of texts kept between reads (default Snapshot's 8 MB). */
  textCacheBytes?: number;
}

/**
 * The query layer: every read of the CLI, the API and the web pages, answered from one in-memory
 * snapshot of the database. Throws QueryError for bad arguments and missing rules; each edge
 * translates it once. Its answers are written in modules by concern, which it calls: the rule tree
 * (ruleTree), references (editionReferences), search (searchEdition), histories (ruleHistories), diffs
 * (DiffCache), edition lists and exports (editionSummaries); rules, texts and the glossary it reads from the snapshot itself.
 */
export class KnowledgeBase {
  readonly snapshot: Snapshot;
  // per edition, the latest used (a server of hundreds of editions would otherwise keep them all)
  private readonly keywordMemo = new LRUCache<number, KeywordRecord[]>({ max: EDITION_MEMO });
  private readonly matchers = new LRUCache<number, GlossaryMatcher>({ max: EDITION_MEMO });
  private readonly diffs: DiffCache;
  private readonly unitParts: UnitParts;

  constructor(
    readonly db: Db,
    opts: KnowledgeBaseOptions = {},
    /** The verified file it reads, held open (openVerified), or null. */
    readonly file: DbFile | null = null,
  ) {
    this.snapshot = new Snapshot(db, opts.textCacheBytes);
    this.diffs = new DiffCache(this.snapshot, opts.diffCacheBytes ?? 8 * 1024 * 1024);
    this.unitParts = new UnitParts(db);
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

  /**
   * Opens in place the database file another thread of this process verified and holds open (by its
   * descriptor, size and modification time; see openHeldDb), or null where it cannot: the caller then
   * reads its bytes.
   */
  static openHeldDb(held: { fd: number; size: number; mtimeMs: number }): Db | null {
    return openHeldDb(held);
  }

  /** Loads a serialized database (made by `db.serialize()`), read-only in memory. */
  static openImage(image: Uint8Array, opts: KnowledgeBaseOptions = {}): KnowledgeBase {
    return new KnowledgeBase(openImageDb(image), opts);
  }

  /**
   * Builds what the first read of the newest editions and keyword lookups (the newest editions') would
   * build (a server does this at start, not in a request), and in the background the newest edition's
   * search index, the other editions and the words typo corrections compare with; `search: false`
   * leaves the search indexes and words to be built when first searched, `keywords: false` the keyword
   * lists to the first lookup of each edition (a heavy worker thread, which answers none but costly GraphQL).
   */
  warm(opts: { search?: boolean; keywords?: boolean } = {}): this {
    // the newest editions' rows now (what most requests read), the others' once serving
    this.snapshot.loadAll(EDITION_MEMO);
    void this.snapshot.editionsInBackground();
    if (opts.search !== false) {
      // the newest edition's index, once start-up has nothing else to do (a server waits for its heavy
      // worker to load): a search before then builds it itself; an older edition's is built on its
      // first search (the latest few kept)
      setImmediate(() => {
        if (this.db.open) for (const e of this.snapshot.newestEditions()) this.snapshot.searchOf(e.id).vocabulary();
      });
      // read in the background: a search that needs them first reads them at once
      void this.snapshot.wordsInBackground();
    }
    if (opts.keywords === false) return this;
    // the newest editions last, so that they are the ones kept
    const newest = [...this.snapshot.editions].sort((a, b) => (a.effectiveDate < b.effectiveDate ? -1 : a.effectiveDate > b.effectiveDate ? 1 : 0));
    for (const e of newest.slice(-EDITION_MEMO)) this.keywords(e.id);
    return this;
  }

  /** Closes the database and frees the search indexes. */
  close(): void {
    this.snapshot.close();
    this.db.close();
    if (this.file) closeSync(this.file.fd);
  }

  // ---- editions

  /** Editions the sources manifest knows, stored or not (set by the edge that read data/sources.json: crkb serve, crkb mcp). */
  known: readonly KnownEdition[] = [];

  /** The newest edition the manifest knows, in force today, that the database lacks (staleData), as answers say it; null when up to date. */
  newerKnown(today?: string): NewerKnown | null {
    // asked by most answers: worked out once a day (and again when `known` is replaced)
    const memo = this.newerKnownMemo;
    // (today's date written out only when the day may have changed: a Date and its ISO text on every answer cost more than the rest)
    const now = Date.now();
    const day = today ?? (memo && now >= memo.from && now < memo.from + 86_400_000 ? memo.today : new Date(now).toISOString().slice(0, 10));
    if (memo?.today === day && memo.known === this.known) return memo.answer;
    const answer = newerKnownOf(staleData(this, this.known, day));
    this.newerKnownMemo = { today: day, known: this.known, answer, from: Date.parse(`${day}T00:00:00Z`) };
    return answer;
  }

  /** The last newerKnown answer: for `today`, which starts at `from` (ms since the epoch, UTC). */
  private newerKnownMemo: { today: string; known: readonly KnownEdition[]; answer: NewerKnown | null; from: number } | null = null;

  /** newerKnown for an answer from `edition`: the manifest knows the CR's editions only, so null for another document. */
  newerKnownFor(edition: EditionInfo): NewerKnown | null {
    return edition.family === 'cr' ? this.newerKnown() : null;
  }

  /** Every stored edition, by family then date. */
  editions(): EditionInfo[] {
    return this.snapshot.editions;
  }

  /** The official editions of a family, oldest first: the chain whose neighbours are its releases. */
  officialEditions(family: Family = 'cr'): EditionInfo[] {
    return this.snapshot.editions.filter((e) => e.family === family && e.official);
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

  /**
   * A lookup's edition and query: the tournament document the query names at its head ("ipg 2.1",
   * "mtr 4.2") or else `family` (the CR by default), its edition `arg` resolved in that family.
   */
  lookupScope(arg: string | null | undefined, q: string, family: Family = 'cr'): ResolvedEdition & { query: string } {
    const named = familyInQuery(q);
    return { ...this.resolveEdition(arg, named.family ?? family), query: named.family === null ? q : named.text || q };
  }

  /** A tournament document's unit (MTR, IPG): its title, penalty, body and named parts; null for a rule of the CR. */
  unit(rule: RuleRecord): PolicyUnit | null {
    const e = this.snapshot.editionById(rule.editionId);
    if (!e || !isPolicyFamily(e.family)) return null;
    return { ...splitUnitText(rule.text), parts: this.unitParts.of(rule.versionId) };
  }

  /** Every edition of a family with its counts and source files, oldest first (`crkb editions`). */
  editionSummaries(family: Family = 'cr'): EditionSummary[] {
    return editionSummaries(this.snapshot, family);
  }

  /**
   * The text file a CR edition (any edition argument) was stored from, as published or normalized to UTF-8/LF
   * (/v1/files); NOT_FOUND when no edition answers the argument or no text file of it is stored.
   */
  publishedFile(arg: string, normalized: boolean): PublishedFile & ResolvedEdition {
    const r = resolveEdition(this.snapshot.editions, arg, 'cr');
    if (r.problem !== undefined) throw new QueryError('NOT_FOUND', r.problem, { argument: 'edition' });
    return { ...publishedFile(this.snapshot, r.edition, normalized), edition: r.edition, exact: r.exact };
  }

  /** One edition whole, as `crkb export` prints it and `/v1/editions/{edition}.json` serves it. */
  exportEdition(edition: EditionInfo): EditionExport {
    return exportEdition(this.snapshot, edition);
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

  /** Whether an edition has a rule of a number (nothing of it read). */
  hasRule(editionId: number, number: string): boolean {
    return this.snapshot.positionOfNumber(editionId, number) >= 0;
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

  /** Every rule of the rule's edition printed with its number, in document order: more than one when the edition prints it twice. */
  sameNumber(rule: RuleRecord): RuleRecord[] {
    return this.snapshot.rulesByNumber(rule.editionId, rule.number);
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
    return descendants(this.snapshot, rule, limit);
  }

  /** How many rules lie below a rule number in an edition (nothing of them read), or -1 when it has no such rule. */
  subtreeSize(editionId: number, number: string): number {
    return subtreeSize(this.snapshot, editionId, number);
  }

  /** Direct children of a rule, in document order. */
  children(rule: RuleRecord): RuleRecord[] {
    return children(this.snapshot, rule);
  }

  /** Direct children of several rules of one edition, by parent number. */
  childrenOf(editionId: number, numbers: readonly string[]): Map<string, RuleRecord[]> {
    return childrenOf(this.snapshot, editionId, numbers);
  }

  /** The enclosing rules of a rule, nearest first. */
  ancestors(rule: RuleRecord): RuleRecord[] {
    return ancestors(this.snapshot, rule);
  }

  /**
   * The rules of the same kind just before and after a rule, skipping what lies between
   * (702.19 → 702.18 and 702.20; 702.19b → 702.19a and 702.19c; 702 → 701 and 703).
   */
  adjacent(rule: RuleRecord): { previous: RuleRecord | null; next: RuleRecord | null } {
    return adjacent(this.snapshot, rule);
  }

  /**
   * A page of rules in document order after position `after`. `section` keeps one part ("7"),
   * section ("702") or rule ("702.19") with everything below it.
   */
  rulesPage(editionId: number, opts: { section?: string | null; after?: number; limit: number }): RuleRecord[] {
    return rulesPage(this.snapshot, editionId, opts);
  }

  /** Section rules of an edition ("702" → "Keyword Abilities"). */
  sections(editionId: number): Array<{ number: string; title: string }> {
    return sections(this.snapshot, editionId);
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
    return citing(this.snapshot, editionId, numbers);
  }

  /**
   * The edition of `family` in force on `date` (the edition a text of that day cites), or null when the
   * family has none by then. `orFirst`: the family's first edition when none was in force yet.
   */
  editionInForce(family: Family, date: string, orFirst = false): EditionInfo | null {
    const editions = this.snapshot.editions;
    return inForceOn(editions, family, date) ?? (orFirst ? (editions.find((e) => e.family === family && e.official) ?? null) : null);
  }

  /**
   * Where a stored reference of a text in edition `editionId` points: its own edition, or for a reference to
   * another document ("cr:704.3", "mtr:4.2") that document's edition in force then; null when there is none.
   */
  refPlace(editionId: number, target: string): { edition: EditionInfo; number: string } | null {
    const at = this.snapshot.editionById(editionId);
    if (!at) return null;
    const t = refTarget(target);
    if (t.family === null || t.family === at.family) return { edition: at, number: t.number };
    // the stored editions of a document may begin after the citing text's: its first one then
    const edition = this.editionInForce(t.family, at.effectiveDate, true);
    return edition && { edition, number: t.number };
  }

  /** The rule a stored reference names (see refPlace), or null (a part, or nothing there). */
  refRule(editionId: number, ref: Pick<TextRefRecord, 'target' | 'kind'>): RuleRecord | null {
    const p = this.refPlace(editionId, ref.target);
    if (!p) return null;
    if (ref.kind === 'part' && p.edition.family === 'cr') return null;
    return this.rule(p.edition.id, p.number);
  }

  /** Whether a stored reference names something (a rule, section, part or tournament-document section). */
  refExists(editionId: number, ref: Pick<TextRefRecord, 'target' | 'kind'>): boolean {
    const p = this.refPlace(editionId, ref.target);
    if (!p) return false;
    if (ref.kind === 'part' && p.edition.family === 'cr') return this.snapshot.parts(p.edition.id).some((x) => x.number === p.number);
    return this.hasRule(p.edition.id, p.number);
  }

  /**
   * Rules and sections of the other documents (CR, MTR, IPG, JAR) citing `rule`: each document's edition in force
   * when the rule's edition took effect, in document order.
   */
  citingElsewhere(rule: RuleRecord): RuleRecord[] {
    const at = this.snapshot.editionById(rule.editionId);
    if (!at) return [];
    const out: RuleRecord[] = [];
    for (const f of DOCUMENT_FAMILIES) {
      if (f === at.family) continue;
      const e = this.editionInForce(f, at.effectiveDate);
      if (!e) continue;
      const positions = new Set<number>();
      for (const t of this.snapshot.textsCitingNumber(`${at.family}:${rule.number}`)) {
        for (const p of this.snapshot.positionsUsingText(e.id, t, 'text')) positions.add(p);
        for (const p of this.snapshot.positionsUsingText(e.id, t, 'example')) positions.add(p);
      }
      for (const p of [...positions].sort((a, b) => a - b)) out.push(this.snapshot.ruleAt(e.id, p)!);
    }
    return out;
  }

  /** Glossary entries of an edition citing each number. */
  glossaryCiting(editionId: number, numbers: readonly string[]): Map<string, GlossaryRecord[]> {
    return glossaryCiting(this.snapshot, editionId, numbers);
  }

  /** References of an edition (rule texts, examples, glossary) that resolve to nothing in it. */
  dangling(editionId: number): DanglingRef[] {
    return danglingRefs(this.snapshot, editionId);
  }

  /** References whose quoted title no longer names their (existing) target ("rule 727, "Day and Night"" when 727 is another rule). */
  staleRefs(editionId: number): StaleRef[] {
    return staleRefs(this.snapshot, editionId);
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

  /** Glossary terms of an edition used in a text (see GlossaryMatcher); `skip` leaves out one entry; `where` is the rule the text is of. */
  glossaryMentions(editionId: number, text: string, skip?: GlossaryRecord, where?: string): readonly GlossaryMention[] {
    let m = this.matchers.get(editionId);
    if (!m) {
      m = new GlossaryMatcher(this.glossary(editionId));
      this.matchers.set(editionId, m);
    }
    return m.mentions(text, skip, where);
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
    return searchEdition(this.snapshot, editionId, text, opts);
  }

  /** The edition a search text names ("trample in 2010", read as a lookup reads it), else `asked`, and the text without it. */
  searchScope(asked: EditionInfo, q: string): { edition: EditionInfo; text: string; named: boolean } {
    return searchScope(this, asked, q);
  }

  /** A search's page of hits and how many hits it has in all (a web page's "1–25 of 140 results"). */
  countedSearch(editionId: number, text: string, opts: SearchQuery): CountedSearch {
    return countedSearch(this.snapshot, editionId, text, opts);
  }

  // ---- diffs and history

  /** Changes between two editions (any two; `from` may be later than `to`), kept in a bounded cache (DiffCache). */
  diff(from: EditionInfo, to: EditionInfo, opts: DiffQuery = {}): EditionDiff {
    return this.diffs.diff(from, to, opts);
  }

  /**
   * Diffs every official edition of a family with the one before it (the newest first) between other work,
   * with word segments for the changes in `segmentsIn`, up to the diff cache's bound: a server's diff pages
   * between neighbours are then rendered from kept diffs, none aligned or word-diffed on request.
   */
  diffsInBackground(family: Family, segmentsIn: SegmentRanges): Promise<void> {
    const chain = this.officialEditions(family);
    const pairs = chain.slice(1).map((e, k) => [chain[k]!, e] as const);
    return this.diffs.inBackground(pairs.reverse(), segmentsIn, () => !this.db.open);
  }

  /** Bytes the diff cache holds (its estimate of what the diffs it keeps take), at most diffCacheBytes. */
  get diffCacheBytes(): number {
    return this.diffs.bytes;
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

  /** A rule's history across the official editions of its family, or null when the edition has no such rule. */
  history(edition: EditionInfo, number: string): RuleHistoryAnswer | null {
    return ruleHistoryOf(this.snapshot, edition, number);
  }

  /** A glossary term's history across the official editions (renamings followed), or null when no edition (or `at`) has it. */
  glossaryHistory(term: string, at: EditionInfo | null = null, family: Family = 'cr'): GlossaryHistory | null {
    return termHistoryOf(this.snapshot, term, at, family);
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
