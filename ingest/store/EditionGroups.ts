import type { EditionRow, Writer } from './Writer.js';
import type { CopyProvenance } from './copyProvenance.js';
import { deserialize } from 'node:v8';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { isPublishedText, type ParsedCopy } from './parseTask.js';
import { outranks } from './outranks.js';
import { releaseBuffer } from './releaseBuffer.js';
import { hashedRules, hashPair, storedTexts, textHashes, type TextHashes } from './textHashes.js';
import { labelDateOf, type Manifest } from './sources.js';
import { repairAmbiguousWords, wordsToCheck } from './resolveAmbiguousWords.js';
import { countDiffering, findingsOf, type DocumentSummary, type EditionCounts } from './summarizeDocument.js';
import type { AlignRule } from '../../src/engine/align.js';
import type { DecodedText, DocumentFamily, ParsedDocument } from '../../src/core/types.js';
import { FAMILIES } from '../../src/core/families.js';
import { isPolicyFamily } from '../../src/core/policyUnit.js';
import { addDays, daysBetween } from '../../src/core/daysBetween.js';
import { RENDITION_WINDOW_DAYS, renditionOf, type Heading, type OfficialEdition, type RenditionMatch } from './renditionOf.js';

/** One edition touched by an ingest run. */
export interface EditionReport {
  family: DocumentFamily;
  effectiveDate: string;
  label: string;
  official: boolean;
  status: 'added' | 'replaced' | 'merged';
  /** The file whose text is stored. */
  primary: string;
  /**
   * Every file of this run merged into the edition, with how many normalized entries differ from
   * the primary, and the completeness checks' findings in it ("line: code: message").
   */
  files: Array<{
    path: string;
    encoding: string;
    lineEndings: string[];
    differing: number;
    identicalTo: string | null;
    findings: string[];
    provenance: CopyProvenance;
  }>;
  /** Why the stored copy is the one stored (an official copy outranks any other; see outranks). */
  why: string;
  counts: EditionCounts;
  unaccountedLines: number;
  /** Findings of the completeness checks in the stored file (see FINDING_CODES). */
  findings: number;
  warnings: string[];
}

/**
 * A parsed input that holds a whole document, with the date it is filed under: what its report
 * and comparisons need, and the document itself serialized (read only if it is the copy stored).
 */
export interface Candidate {
  path: string;
  /** Where it comes from: official or not (see copyProvenance). */
  provenance: CopyProvenance;
  /** The input's hash and size (its bytes are not kept once parsed). */
  input: { sha256: string; size: number };
  summary: DocumentSummary;
  decoded: Omit<DecodedText, 'text'>;
  /** v8.serialize of its ParsedCopy; null for a copy outranked by one parsed before it (see CopyGate). */
  copy: Uint8Array | null;
  date: string;
  warnings: string[];
  fidelity: number[];
  /** Position among the parsed inputs (for the parse pool). */
  index: number;
}

/**
 * A candidate as a group keeps it: its serialized document only while it may still be stored (an
 * ingest must not hold every parsed document at once).
 */
interface Member extends Omit<Candidate, 'summary' | 'copy'> {
  copy: Uint8Array | null;
  /** Whether `copy` is deflated (it waits for the end of the run). */
  deflated: boolean;
  format: string;
  counts: EditionCounts;
  unaccounted: number;
  docWarnings: ParsedDocument['warnings'];
  /** The completeness checks' findings in it ("line: code: message"). */
  findings: string[];
  /** Each rule's and glossary entry's normalized-text hashes, keyed by number or term (see summarizeDocument). */
  entries: Float64Array;
  /** Entries differing from the edition's stored copy, as last counted. */
  differing: number;
  /** A tournament document's units, number and title (see renditionOf). */
  headings: Heading[];
  /** For a rendition filed under another date's edition (see fileRenditions): the report's line saying so. */
  filed: string | null;
}

interface Group {
  family: DocumentFamily;
  date: string;
  candidates: Member[];
  /** The edition as it was before this run, if any. */
  before: EditionRow | undefined;
  /** The candidate whose text this run stored, or null (nothing stored yet, or the earlier file kept). */
  ourPrimary: Member | null;
  /**
   * The rules this run stored, kept to align the edition with its neighbours until it is let go:
   * as read back from `stored` (the copy stored, serialized) when they are needed, unless the copy
   * was repaired after parsing.
   */
  rules: AlignRule[] | null;
  stored: { copy: Uint8Array; deflated: boolean } | null;
  /** Stored with its current candidates. */
  clean: boolean;
  report: EditionReport | null;
}

/**
 * A pair of consecutive editions, both stored by this run, that can be aligned: the inputs stored (by
 * index), and their rules unless one of them was let go.
 */
export interface AlignablePair {
  key: string;
  before: number;
  after: number;
  rules(): [before: AlignRule[], after: AlignRule[]] | null;
}

/**
 * Gathers parsed documents into editions (one per family and effective date) and stores
 * each edition as soon as no input still being parsed can belong to it, judged by the
 * date each input was expected to have. An input that turns out to belong to an edition
 * stored already is merged into it: the edition is stored again if that file is better.
 */
export class EditionGroups {
  private readonly groups = new Map<string, Group>();
  /** Expected dates of inputs not parsed yet (null: could be any). */
  private readonly pending = new Map<number, string | null>();
  /** Inputs whose ambiguous words were settled (each once). */
  private readonly settled = new Set<number>();
  /** Whether an edition's earlier content was replaced (its texts may now be unused). */
  replacedContent = false;
  /** The edition this run stored last. */
  private lastStored: Group | null = null;

  constructor(
    private readonly writer: Writer,
    private readonly manifest: Manifest | null,
    private readonly aliases: Map<string, string[]>,
    expected: Array<string | null>,
  ) {
    expected.forEach((d, i) => this.pending.set(i, d));
  }

  /** Input `index` is parsed: `candidate` is the complete document it holds, or null (a fragment or a rejection). */
  parsed(index: number, candidate: Candidate | null): void {
    this.pending.delete(index);
    if (!candidate) return;
    const g = this.groupOf(candidate.summary.family, candidate.date);
    const { summary, ...rest } = candidate;
    g.candidates.push({
      ...rest,
      format: summary.format,
      counts: summary.counts,
      unaccounted: summary.unaccounted,
      docWarnings: summary.warnings,
      findings: summary.findings,
      entries: summary.entries,
      differing: 0,
      deflated: false,
      headings: summary.headings,
      filed: null,
    });
    const best = this.joined(g);
    // an edition with words of uncertain code page is stored at the end of the run: its copy waits smaller
    if (hasAmbiguity(g) && best.copy && !best.deflated) {
      const deflated = deflateRawSync(best.copy, { level: 1 });
      releaseBuffer(best.copy);
      best.copy = deflated;
      best.deflated = true;
    }
    g.clean = false;
  }

  /** The group of an edition, made (with the edition as stored before this run, if any) when it has none yet. */
  private groupOf(family: DocumentFamily, date: string): Group {
    const key = `${family}|${date}`;
    let g = this.groups.get(key);
    if (!g) {
      g = {
        family,
        date,
        candidates: [],
        before: this.writer.findEdition(family, date),
        ourPrimary: null,
        rules: null,
        stored: null,
        clean: false,
        report: null,
      };
      this.groups.set(key, g);
    }
    return g;
  }

  /** Candidates have joined `g`: orders them, lets go of the documents that will not be stored; returns its best copy. */
  private joined(g: Group): Member {
    // in input order, whichever was parsed first: the edition's warnings and files are listed so
    g.candidates.sort((x, y) => x.index - y.index);
    // only the best copy of an edition is ever stored: the others' documents can go now
    const best = bestOf(g);
    for (const c of g.candidates) if (c !== best) dropCopy(c);
    return best;
  }

  /**
   * Files each tournament-document edition known only from renditions (see isRendition), whose date no
   * official copy states, under the official edition it renders (see renditionOf), of this run or stored
   * before: its files become copies of that edition. Returns the editions that must wait, an input still
   * to be parsed being expected within RENDITION_WINDOW_DAYS of their date.
   */
  private fileRenditions(all: boolean): Set<Group> {
    const waiting = new Set<Group>();
    const expected = all ? [] : [...this.pending.values()];
    for (const g of [...this.groups.values()]) {
      if (g.clean || g.ourPrimary || g.before || !isPolicyFamily(g.family) || !g.candidates.every(isRendition)) continue;
      if (expected.some((d) => d === null || Math.abs(daysBetween(d, g.date)) <= RENDITION_WINDOW_DAYS)) {
        waiting.add(g);
        continue;
      }
      const match = renditionOf(g.date, bestOf(g).headings, this.publishedNear(g));
      if (match) this.fileUnder(g, match);
    }
    return waiting;
  }

  /** The official editions of `g`'s family near its date: this run's (with a copy not a rendition) and those stored before. */
  private publishedNear(g: Group): OfficialEdition[] {
    const out: OfficialEdition[] = [];
    for (const o of this.groups.values()) {
      if (o.family !== g.family || o === g || Math.abs(daysBetween(o.date, g.date)) > RENDITION_WINDOW_DAYS) continue;
      const published = o.candidates.filter((c) => !isRendition(c));
      if (published.length > 0) out.push({ date: o.date, headings: () => bestOf({ candidates: published }).headings });
    }
    for (const e of this.writer.publishedNear(g.family, addDays(g.date, -RENDITION_WINDOW_DAYS), addDays(g.date, RENDITION_WINDOW_DAYS))) {
      if (!out.some((o) => o.date === e.effectiveDate)) out.push({ date: e.effectiveDate, headings: () => this.writer.unitHeadings(e.id) });
    }
    return out;
  }

  /** Moves a rendition-only edition's files into the official edition it renders; each says so in the report. */
  private fileUnder(g: Group, match: RenditionMatch): void {
    this.groups.delete(`${g.family}|${g.date}`);
    const into = this.groupOf(g.family, match.date);
    for (const c of g.candidates) {
      c.filed = filedLine(c.path, g.family, g.date, match);
      into.candidates.push(c);
    }
    this.joined(into);
    into.clean = false;
  }

  /**
   * Once this run's editions are stored: an edition stored before from renditions alone (see isRendition)
   * that renders an official edition stored since, near one this run stored, is absorbed by it (its files
   * become that edition's copies, Writer.absorbEdition), as if both had come in one run (fileRenditions).
   * Each absorbed file says so in the report of the edition it joins (or of the one this run stored near it).
   */
  absorbStoredRenditions(): void {
    for (const g of [...this.groups.values()]) {
      if (!g.report || !isPolicyFamily(g.family) || !g.candidates.some((c) => !isRendition(c))) continue;
      for (const e of this.writer.renditionsNear(g.family, addDays(g.date, -RENDITION_WINDOW_DAYS), addDays(g.date, RENDITION_WINDOW_DAYS))) {
        // (one this run has not stored yet is fileRenditions' to file)
        const own = this.groups.get(`${g.family}|${e.effectiveDate}`);
        // (an edition absorbed is gone from the database: later groups' lists no longer hold it)
        if (own && !own.clean) continue;
        const near = this.writer.publishedNear(g.family, addDays(e.effectiveDate, -RENDITION_WINDOW_DAYS), addDays(e.effectiveDate, RENDITION_WINDOW_DAYS));
        const match = renditionOf(
          e.effectiveDate,
          this.writer.unitHeadings(e.id),
          near.map((o) => ({ date: o.effectiveDate, headings: () => this.writer.unitHeadings(o.id) })),
        );
        const into = match && near.find((o) => o.effectiveDate === match.date);
        if (!match || !into) continue;
        const paths = this.writer.filePaths(e.id);
        this.writer.absorbEdition(e.id, into.id);
        this.replacedContent = true;
        // an edition this run stored from renditions is gone: so is its report
        if (own) this.groups.delete(`${g.family}|${e.effectiveDate}`);
        const report = this.groups.get(`${g.family}|${match.date}`)?.report ?? g.report;
        for (const path of paths)
          report.warnings.push(`${filedLine(path, g.family, e.effectiveDate, match)}; the ${e.effectiveDate} edition stored from it before is removed`);
      }
    }
  }

  /**
   * Stores every edition no pending input can still join (in the run's transaction, see ingestLocked); returns how
   * many. Editions holding words of uncertain code page wait for the end of the run: their evidence
   * is the words every other edition holds, gathered once before any of them is stored.
   * `stored` is called after each edition (to align it while its neighbours are at hand).
   */
  storeReady(all = false, stored: () => void = () => {}): number {
    const blocked = all ? new Set<string>() : new Set([...this.pending.values()].map((d) => d ?? '*'));
    if (blocked.has('*')) return 0;
    const waiting = this.fileRenditions(all);
    const ready = [...this.groups.values()].filter((g) => !g.clean && !blocked.has(g.date) && !waiting.has(g)).sort((a, b) => (a.date < b.date ? -1 : 1));
    const settled = ready.filter((g) => !hasAmbiguity(g));
    const uncertain = all ? ready.filter(hasAmbiguity) : [];
    for (const g of settled) {
      this.store(g, null);
      stored();
    }
    if (uncertain.length > 0) {
      const attested = this.writer.attested(wordsToCheck(uncertain.flatMap((g) => g.candidates.flatMap((c) => c.decoded.ambiguous ?? []))));
      for (const g of uncertain) {
        this.store(g, attested);
        stored();
      }
    }
    return settled.length + uncertain.length;
  }

  /**
   * Pairs of consecutive editions of a family (in the chain of `existing` "family|date" editions and this
   * run's) that are both stored by this run and that no pending input can come between.
   */
  alignablePairs(existing: Set<string>): AlignablePair[] {
    const expected = [...this.pending.values()];
    if (expected.includes(null)) return [];
    const out: AlignablePair[] = [];
    for (const family of FAMILIES) {
      const dates = new Set<string>();
      for (const k of existing) if (k.startsWith(`${family}|`)) dates.add(k.slice(family.length + 1));
      for (const g of this.groups.values()) if (g.family === family) dates.add(g.date);
      const chain = [...dates].sort();
      for (let k = 1; k < chain.length; k++) {
        const a = this.groups.get(`${family}|${chain[k - 1]!}`);
        const b = this.groups.get(`${family}|${chain[k]!}`);
        if (!a?.clean || !b?.clean || a.before || b.before || !a.ourPrimary || !b.ourPrimary) continue;
        if (expected.some((d) => d! >= a.date && d! <= b.date)) continue;
        const rules = (): ReturnType<AlignablePair['rules']> => {
          const [x, y] = [rulesOf(a), rulesOf(b)];
          return x && y ? [x, y] : null;
        };
        out.push({ key: `${family}|${a.date}|${b.date}`, before: a.ourPrimary.index, after: b.ourPrimary.index, rules });
      }
    }
    return out;
  }

  /** Lets go of the rules stored from input `index` (aligned with both its neighbours): aligning it again gives no rules. */
  letGo(index: number): void {
    for (const g of this.groups.values()) if (g.ourPrimary?.index === index) forgetRules(g);
  }

  /**
   * Keeps as objects only the rules of the edition stored last (its successor is most likely
   * stored next); the others wait serialized, a fraction of the memory, until a neighbour comes.
   */
  compactRules(): void {
    for (const g of this.groups.values()) if (g !== this.lastStored && g.stored) g.rules = null;
  }

  /** Reports of the editions stored, in date order. */
  reports(): EditionReport[] {
    return [...this.groups.values()]
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.family < b.family ? -1 : 1))
      .flatMap((g) => (g.report ? [g.report] : []));
  }

  private store(g: Group, attested: ReadonlySet<string> | null): void {
    const { family, date } = g;
    const best = bestOf(g);
    let replace: boolean;
    let kept = '';
    if (g.ourPrimary) replace = g.ourPrimary !== best;
    else if (g.before) {
      const prev = this.writer.primaryReport(g.before.id) as { fidelity?: number[]; provenance?: { official?: boolean } } | null;
      // a non-official copy never replaces official text (a copy stored before provenance was recorded counts as official)
      const prevOfficial = prev?.provenance?.official ?? true;
      if (prevOfficial !== best.provenance.official) replace = best.provenance.official;
      else replace = !prev?.fidelity || greater(best.fidelity, prev.fidelity);
      if (!replace)
        kept =
          prevOfficial && !best.provenance.official
            ? 'the official copy stored before is kept: a non-official copy never replaces it'
            : 'the copy stored before is kept: it is as good or better';
    } else replace = true;
    const known = this.manifest?.editions.find((e) => e.family === family && e.effectiveDate === date);
    const warnings = g.candidates.flatMap((c) => c.warnings);
    // a better copy is always one not stored yet (the others were worse than the stored one), so it still has its document
    const parsed = best.copy ? readCopy(best.copy, best.deflated) : null;
    const doc = parsed?.doc;
    const hashes = parsed && attested ? this.repaired(best, parsed, attested) : parsed?.hashes;
    let editionId: number;
    if (replace) {
      if (g.ourPrimary || g.before) this.replacedContent = true;
      editionId = this.writer.storeEdition(
        { family, effectiveDate: date, official: true, label: '', setCode: known?.setCode ?? null, setName: known?.setName ?? null, warnings },
        doc!,
        hashes,
      );
      g.ourPrimary = best;
      forgetRules(g);
      g.rules = hashes ? hashedRules(doc!.rules, hashes) : doc!.rules;
      // unrepaired, the copy gives the same rules again
      if (best.copy && hashes === parsed?.hashes) {
        g.stored = { copy: best.copy, deflated: best.deflated };
        best.copy = null;
      }
      this.lastStored = g;
    } else {
      editionId = g.ourPrimary ? this.writer.findEdition(family, date)!.id : g.before!.id;
    }
    const files = this.recordFiles(g, best, editionId);
    // the published bytes of the text file stored (a Word document's text is no published text file), compressed
    // by the writer: the parse worker sends them whole, as many copies it parses are not the one stored
    if (replace) this.writer.storePublished(best.input.sha256, isPublishedText(best.format) ? (parsed?.published ?? null) : null, best.input.size);
    const primary = g.ourPrimary;
    g.report = {
      family,
      effectiveDate: date,
      label: '',
      official: true,
      status: g.before ? (primary ? 'replaced' : 'merged') : 'added',
      primary: primary ? primary.path : '(previously stored file)',
      files,
      why: kept || whyStored(g.ourPrimary ?? best, g.candidates),
      counts: best.counts,
      unaccountedLines: best.unaccounted,
      findings: best.findings.length,
      // a rendition filed under this edition says so in the report only (the edition's stored warnings are its own)
      warnings: [
        ...warnings,
        ...g.candidates.flatMap((c) => (c.filed ? [c.filed] : [])),
        ...best.docWarnings.map((w) => `${best.path}${w.line === null ? '' : `:${w.line}`}: ${w.message}`),
      ],
    };
    g.clean = true;
  }

  /**
   * Settles the ambiguous words of the best copy's document (once per input) by the words other editions
   * attest, in place; returns its text hashes, those of repaired texts hashed again.
   */
  private repaired(best: Member, parsed: ParsedCopy, attested: ReadonlySet<string>): TextHashes {
    const { doc, hashes } = parsed;
    if (!best.decoded.ambiguous || this.settled.has(best.index)) return hashes;
    this.settled.add(best.index);
    const decoded = storedTexts(doc);
    let out = hashes;
    if (repairAmbiguousWords(doc, best.decoded.ambiguous, attested) > 0) {
      // the worker hashed the texts as decoded: the repaired ones are hashed again
      out = textHashes(doc, (t, i) => (t === decoded[i] ? [hashes.h[i]!, hashes.normH[i]!] : hashPair(t)));
    }
    // the repair reports itself, and checks the structure again, in the document's warnings
    best.docWarnings = doc.warnings;
    best.findings = findingsOf(doc);
    return out;
  }

  /** Records the files of an edition (its candidates and their identical copies) as stored; returns them as its report lists them. */
  private recordFiles(g: Group, best: Member, editionId: number): EditionReport['files'] {
    const files: EditionReport['files'] = [];
    for (const c of g.candidates) {
      const differing = c === best ? 0 : c.entries.length === 0 ? c.differing : countDiffering(best.entries, c.entries);
      c.differing = differing;
      const copies = this.aliases.get(c.input.sha256) ?? [];
      for (const path of [c.path, ...copies]) {
        files.push({
          path,
          encoding: c.decoded.encoding,
          lineEndings: c.decoded.lineEndings,
          differing,
          identicalTo: path === c.path ? null : c.path,
          findings: c.findings,
          provenance: c.provenance,
        });
      }
      this.writer.recordFile({
        sha256: c.input.sha256,
        path: c.path,
        size: c.input.size,
        encoding: c.decoded.encoding,
        lineEndings: c.decoded.lineEndings.join(','),
        format: c.format,
        labelDate: labelDateOf(c.path),
        editionId,
        role: c === g.ourPrimary ? 'primary' : 'duplicate',
        differing,
        report: {
          identicalCopies: copies,
          provenance: c.provenance,
          fidelity: c.fidelity,
          counts: c.counts,
          unaccounted: c.unaccounted,
          warnings: c.docWarnings.map((w) => `${w.line ?? '-'}: ${w.message}`),
        },
      });
      // stored: the document is not needed again (a later, better copy brings its own), nor the
      // entries of a copy that is not the best (should a better one come, its count stays as it was)
      dropCopy(c);
      if (c !== best) c.entries = new Float64Array(0);
    }
    return files;
  }
}

/** The report's line for a rendition filed under the official edition it renders. */
function filedLine(path: string, family: DocumentFamily, stated: string, match: RenditionMatch): string {
  const days = Math.abs(match.days);
  const when = `${days} day${days === 1 ? '' : 's'} ${match.days > 0 ? 'after' : 'before'} it`;
  return (
    `${path}: states ${stated}, a date no official copy of the ${family.toUpperCase()} has: filed as a copy of the ${match.date} edition ` +
    `(${when}; the same ${match.sections} numbered sections, ${match.alike} with alike titles)`
  );
}

/** A third party's HTML rendition of a tournament document (the MTG Familiar app's): not what Wizards published. */
function isRendition(c: Member): boolean {
  return !c.provenance.official && c.format === 'policy-html';
}

function hasAmbiguity(g: Group): boolean {
  return g.candidates.some((c) => (c.decoded.ambiguous?.length ?? 0) > 0);
}

/** A serialized copy (see ParsedCopy), deflated or not, read back. */
function readCopy(copy: Uint8Array, deflated: boolean): ParsedCopy {
  return deserialize(deflated ? inflateRawSync(copy) : copy) as ParsedCopy;
}

/** The rules a group stored, read back from its stored copy if need be; null once let go. */
function rulesOf(g: Group): AlignRule[] | null {
  if (g.rules === null && g.stored) {
    const { copy, deflated } = g.stored;
    const { doc, hashes } = readCopy(copy, deflated);
    g.rules = hashedRules(doc.rules, hashes);
  }
  return g.rules;
}

function forgetRules(g: Group): void {
  if (g.stored) releaseBuffer(g.stored.copy);
  g.stored = null;
  g.rules = null;
}

function dropCopy(c: Member): void {
  if (c.copy) releaseBuffer(c.copy);
  c.copy = null;
}

function bestOf(g: { candidates: Member[] }): Member {
  let best = g.candidates[0]!;
  for (const c of g.candidates) if (better(c, best)) best = c;
  return best;
}

/** Why a group's stored copy is the one stored, for the report. */
function whyStored(stored: Member, candidates: Member[]): string {
  const others = candidates.filter((c) => c !== stored && c.provenance.official !== stored.provenance.official).length;
  if (!stored.provenance.official) return `${stored.provenance.why}; stored because no official copy of this edition was given`;
  return others > 0 ? `${stored.provenance.why}; preferred to ${others} non-official ${others === 1 ? 'copy' : 'copies'}` : stored.provenance.why;
}

function better(a: Member, b: Member): boolean {
  return outranks(
    { official: a.provenance.official, fidelity: a.fidelity, sha256: a.input.sha256 },
    { official: b.provenance.official, fidelity: b.fidelity, sha256: b.input.sha256 },
  );
}

function greater(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return false;
}
