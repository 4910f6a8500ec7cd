import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { openReadOnlyDb, openWritableDb } from '../src/db/openDb.js';
import { Writer } from '../src/db/Writer.js';
import { IngestError } from './IngestError.js';
import { normalizeText } from './normalize.js';
import { Catalog } from '../src/db/Catalog.js';
import type { Alignment } from '../src/engine/align.js';
import { parseAll, type ParsePool } from './parsePool.js';
import type { ParseOutcome } from './parseTask.js';
import { storeDerived } from './storeDerived.js';
import { storeFragment, type FragmentReport } from './storeFragment.js';
import { fetchInput, labelDateOf, readLocalInput, type InputRef, type LoadedInput, type Manifest } from './sources.js';
import type { DecodedText, DocumentFamily, ParsedDocument } from './types.js';

/** What to ingest and where. */
export interface IngestOptions {
  inputs: InputRef[];
  dbFile: string;
  /** Editions the manifest knows that could not be had (listed in the report). */
  unavailable?: Array<{ effectiveDate: string; reason: string }>;
  /** Known editions: set codes and names by effective date. */
  manifest?: Manifest | null;
  /** Called as inputs are read and parsed. */
  onProgress?: (done: number, total: number, current: string) => void;
  /** Edition a fragment belongs to, when the user says so (`--edition`); otherwise it is identified. */
  edition?: string | null;
  /** Runs inside the write, after editions and derived data (references, lineage) are stored. */
  afterStore?: (writer: Writer) => void;
}

/** Counts of what an edition holds. */
export interface EditionCounts {
  parts: number;
  sections: number;
  rules: number;
  examples: number;
  glossary: number;
}

/** One edition touched by an ingest run. */
export interface EditionReport {
  family: DocumentFamily;
  effectiveDate: string;
  label: string;
  official: boolean;
  status: 'added' | 'replaced' | 'merged';
  /** The file whose text is stored. */
  primary: string;
  /** Every file of this run merged into the edition, with how many normalized entries differ from the primary. */
  files: Array<{ path: string; encoding: string; lineEndings: string[]; differing: number; identicalTo: string | null }>;
  counts: EditionCounts;
  unaccountedLines: number;
  warnings: string[];
}

/** The outcome of an ingest run. */
export interface IngestReport {
  dbFile: string;
  editions: EditionReport[];
  /** Fragments, excerpts and scraped pages, attached to the edition they were identified as. */
  fragments: FragmentReport[];
  rejected: Array<{ source: string; reason: string }>;
  skipped: Array<{ source: string; reason: string }>;
  unavailable: Array<{ effectiveDate: string; reason: string }>;
  /** Whether the database file was rewritten. */
  wrote: boolean;
  seconds: number;
  /** Peak resident memory of the process so far, in MiB. */
  peakRssMb: number;
  /** CPU time of the process so far (all threads), in seconds: steadier than wall time on a shared machine. */
  cpuSeconds: number;
  /** Wall seconds spent in each phase (read, parse, store, align wait, derived, finish). */
  phases: Record<string, number>;
}

interface Candidate {
  path: string;
  input: LoadedInput;
  parsed: { doc: ParsedDocument; decoded: Omit<DecodedText, 'text'> };
  date: string;
  warnings: string[];
  fidelity: number[];
  /** Position among the parsed inputs (for the parse pool). */
  index: number;
}

/**
 * Ingests inputs into the database atomically: new files are parsed first,
 * then everything is written into a copy of the database that replaces the
 * original only when the whole run succeeded. Files already stored (same
 * sha256) are skipped.
 */
export async function runIngest(opts: IngestOptions): Promise<IngestReport> {
  const started = performance.now();
  const report: IngestReport = {
    dbFile: opts.dbFile,
    editions: [],
    fragments: [],
    rejected: [],
    skipped: [],
    unavailable: opts.unavailable ?? [],
    wrote: false,
    seconds: 0,
    peakRssMb: 0,
    cpuSeconds: 0,
    phases: {},
  };
  let mark = started;
  const phase = (name: string): void => {
    const now = performance.now();
    report.phases[name] = Math.round(now - mark) / 1000;
    mark = now;
  };
  const stored = storedState(opts.dbFile);
  const known = stored.hashes;
  const seen = new Map<string, string>();
  // Byte-identical copies (the two archives often hold the same file) are parsed once and reported as merged.
  const aliases = new Map<string, string[]>();
  const loaded: LoadedInput[] = [];
  let done = 0;
  const total = opts.inputs.length * 2;
  for (const ref of opts.inputs) {
    opts.onProgress?.(done++, total, ref.location);
    try {
      const input = ref.kind === 'url' ? await fetchInput(ref) : readLocalInput(ref);
      if (known.has(input.sha256)) {
        report.skipped.push({ source: ref.location, reason: 'already stored (same sha256)' });
      } else if (seen.has(input.sha256)) {
        report.skipped.push({ source: ref.location, reason: `identical to ${seen.get(input.sha256)}` });
        const same = aliases.get(input.sha256);
        if (same) same.push(ref.location);
        else aliases.set(input.sha256, [ref.location]);
      } else {
        seen.set(input.sha256, ref.location);
        if (ref.sha256 && ref.sha256 !== input.sha256) {
          // A local copy that differs from the manifest is still ingested; the report says so.
          report.skipped.push({ source: ref.location, reason: 'note: sha256 differs from the manifest' });
        }
        loaded.push(input);
      }
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      report.rejected.push({ source: e.source, reason: e.reason });
    }
  }
  done = opts.inputs.length + (opts.inputs.length - loaded.length);
  phase('read');
  const pool = await parseAll(
    loaded.map((l) => ({ path: l.ref.location, bytes: l.bytes, contentType: l.contentType })),
    (n) => opts.onProgress?.(done + n, total, ''),
  );
  try {
    const candidates: Candidate[] = [];
    pool.outcomes.forEach((o, i) => {
      const input = loaded[i]!;
      if (!o.ok) {
        report.rejected.push({ source: o.source, reason: o.reason });
        return;
      }
      try {
        candidates.push(toCandidate(input.ref.location, input, o, i));
      } catch (e) {
        if (!(e instanceof IngestError)) throw e;
        report.rejected.push({ source: e.source, reason: e.reason });
      }
    });
    opts.onProgress?.(total, total, '');
    phase('parse');
    if (candidates.length === 0) return finish(report, started);
    // Consecutive new editions are aligned on the parse workers while this thread stores them.
    const alignments = alignNewEditions(pool, candidates, stored.editions);
    await writeAtomically(opts.dbFile, async (writer) => {
      writer.db.transaction(() => {
        storeCandidates(writer, candidates.filter((c) => c.parsed.doc.complete), opts.manifest ?? null, report, aliases);
        for (const c of candidates.filter((f) => !f.parsed.doc.complete)) {
          const input = { path: c.path, sha256: c.input.sha256, size: c.input.bytes.length, decoded: c.parsed.decoded, doc: c.parsed.doc };
          try {
            // A nested transaction is a savepoint: a refused fragment leaves nothing behind.
            report.fragments.push(writer.db.transaction(() => storeFragment(writer, input, opts.edition ?? null))());
          } catch (e) {
            if (!(e instanceof IngestError)) throw e;
            report.rejected.push({ source: e.source, reason: e.reason });
          }
        }
      })();
      phase('store');
      const precomputed = await alignments;
      phase('alignWait');
      writer.db.transaction(() => {
        storeDerived(writer, precomputed);
        opts.afterStore?.(writer);
      })();
      phase('derived');
    });
    phase('commit');
  } finally {
    await pool.close();
  }
  report.wrote = report.editions.length > 0 || report.fragments.length > 0;
  return finish(report, started);
}

/**
 * Starts aligning each pair of consecutive official editions that are both new
 * to the database (keyed "family|before|after"); the lineage step uses these
 * instead of aligning them itself.
 */
async function alignNewEditions(pool: ParsePool, candidates: Candidate[], existing: Set<string>): Promise<Map<string, Alignment>> {
  const best = new Map<string, Candidate>();
  for (const c of candidates) {
    if (!c.parsed.doc.complete) continue;
    const key = `${c.parsed.doc.family}|${c.date}`;
    const b = best.get(key);
    if (!b || better(c, b)) best.set(key, c);
  }
  const chain = [...new Set([...existing, ...best.keys()])].sort();
  const jobs: Array<Promise<[string, Alignment | null]>> = [];
  for (let k = 1; k < chain.length; k++) {
    const [fa, da] = chain[k - 1]!.split('|') as [string, string];
    const [fb, db] = chain[k]!.split('|') as [string, string];
    const a = best.get(chain[k - 1]!);
    const b = best.get(chain[k]!);
    if (fa !== fb || !a || !b || existing.has(chain[k - 1]!) || existing.has(chain[k]!)) continue;
    jobs.push(pool.align(a.index, b.index).then((al) => [`${fa}|${da}|${db}`, al]));
  }
  const out = new Map<string, Alignment>();
  for (const [key, al] of await Promise.all(jobs)) if (al) out.set(key, al);
  return out;
}

function finish(report: IngestReport, started: number): IngestReport {
  report.seconds = (performance.now() - started) / 1000;
  const usage = process.resourceUsage();
  report.peakRssMb = Math.round(usage.maxRSS / 1024);
  report.cpuSeconds = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1e4) / 100;
  return report;
}

function toCandidate(path: string, input: LoadedInput, parsed: Extract<ParseOutcome, { ok: true }>, index: number): Candidate {
  const { doc } = parsed;
  const warnings: string[] = [];
  if (parsed.decoded.damage) warnings.push(`${path}: ${parsed.decoded.damage}`);
  const label = labelDateOf(path);
  let date = doc.effectiveDate;
  if (!doc.complete) return { path, input, parsed, date: doc.effectiveDate ?? '', warnings, fidelity: parsed.fidelity, index };
  if (date === null) {
    if (label === null) throw new IngestError(path, 'the document states no effective date and the file name has none');
    warnings.push(`${path}: the document states no effective date; filed under its file-name date ${label}`);
    date = label;
  } else if (label !== null && label !== date) {
    const days = Math.round((Date.parse(label) - Date.parse(date)) / 86_400_000);
    warnings.push(
      `${path}: archive label ${label} disagrees with the document's own date ${date} (${days > 0 ? '+' : ''}${days} days); filed under ${date}`,
    );
  }
  return { path, input, parsed, date, warnings, fidelity: parsed.fidelity, index };
}

/** What the database holds already: source file hashes and official editions ("family|date"). */
function storedState(dbFile: string): { hashes: Set<string>; editions: Set<string> } {
  if (!existsSync(dbFile)) return { hashes: new Set(), editions: new Set() };
  const db = openReadOnlyDb(dbFile);
  try {
    const catalog = new Catalog(db);
    return {
      hashes: catalog.sourceHashes(),
      editions: new Set(catalog.officialEditions().map((e) => `${e.family}|${e.effectiveDate}`)),
    };
  } finally {
    db.close();
  }
}

/** Builds into a temporary copy and renames it over the database only on success. */
async function writeAtomically(dbFile: string, fn: (writer: Writer) => Promise<void>): Promise<void> {
  const tmp = `${dbFile}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  if (existsSync(dbFile)) copyFileSync(dbFile, tmp);
  try {
    const db = openWritableDb(tmp);
    try {
      await fn(new Writer(db));
      db.pragma('optimize');
    } finally {
      db.close();
    }
    renameSync(tmp, dbFile);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Typographic fidelity (see parseTask): fewer unaccounted lines and warnings, then richer typography, wins. */
function better(a: Candidate, b: Candidate): boolean {
  const fa = a.fidelity;
  const fb = b.fidelity;
  for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i]) return fa[i]! > fb[i]!;
  return a.input.sha256 < b.input.sha256;
}

/** Each rule's and glossary entry's text, keyed by number or term, for comparing two files of an edition. */
function entries(doc: ParsedDocument): Map<string, string> {
  const m = new Map<string, string>();
  for (const r of doc.rules) m.set(r.number, r.examples.length === 0 ? r.text : [r.text, ...r.examples].join('\n'));
  for (const g of doc.glossary) m.set(`glossary:${g.term.toLowerCase()}`, g.definition);
  return m;
}

/** How many entries differ after normalization (or exist on one side only). */
function countDiffering(a: Map<string, string>, b: Map<string, string>, memo: Map<string, string>): number {
  const norm = (s: string): string => {
    let n = memo.get(s);
    if (n === undefined) memo.set(s, (n = normalizeText(s)));
    return n;
  };
  let n = 0;
  for (const [k, v] of a) {
    const w = b.get(k);
    // Most files of one edition decode to the same text: compare raw first, normalize only when needed.
    if (w === undefined || (w !== v && norm(w) !== norm(v))) n++;
  }
  for (const k of b.keys()) if (!a.has(k)) n++;
  return n;
}

function countsOf(doc: ParsedDocument): EditionCounts {
  let sections = 0;
  let examples = 0;
  for (const r of doc.rules) {
    if (r.kind === 'section') sections++;
    examples += r.examples.length;
  }
  return { parts: doc.parts.length, sections, rules: doc.rules.length - sections, examples, glossary: doc.glossary.length };
}

function storeCandidates(
  writer: Writer,
  candidates: Candidate[],
  manifest: Manifest | null,
  report: IngestReport,
  aliases: Map<string, string[]>,
): void {
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = `${c.parsed.doc.family}\u0000${c.date}`;
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  for (const group of [...groups.values()].sort((a, b) => (a[0]!.date < b[0]!.date ? -1 : 1))) {
    const first = group[0]!;
    const family = first.parsed.doc.family;
    let best = first;
    for (const c of group) if (better(c, best)) best = c;
    const existing = writer.findEdition(family, first.date);
    let replace = true;
    if (existing) {
      const prev = writer.primaryReport(existing.id) as { fidelity?: number[] } | null;
      const prevFidelity = prev?.fidelity ?? null;
      if (prevFidelity && !greater(best.fidelity, prevFidelity)) replace = false;
    }
    const known = manifest?.editions.find((e) => e.family === family && e.effectiveDate === first.date);
    const warnings = group.flatMap((c) => c.warnings);
    const doc = best.parsed.doc;
    let editionId: number;
    if (replace) {
      editionId = writer.storeEdition(
        {
          family,
          effectiveDate: first.date,
          official: true,
          label: '',
          setCode: known?.setCode ?? null,
          setName: known?.setName ?? null,
          warnings,
        },
        doc,
      );
    } else {
      editionId = existing!.id;
    }
    const memo = new Map<string, string>();
    const bestEntries = group.length > 1 ? entries(doc) : new Map<string, string>();
    const files: EditionReport['files'] = [];
    for (const c of group) {
      const isPrimary = replace && c === best;
      const differing = c === best ? 0 : countDiffering(bestEntries, entries(c.parsed.doc), memo);
      const copies = aliases.get(c.input.sha256) ?? [];
      for (const path of [c.path, ...copies]) {
        files.push({ path, encoding: c.parsed.decoded.encoding, lineEndings: c.parsed.decoded.lineEndings, differing, identicalTo: path === c.path ? null : c.path });
      }
      writer.recordFile({
        sha256: c.input.sha256,
        path: c.path,
        size: c.input.bytes.length,
        encoding: c.parsed.decoded.encoding,
        lineEndings: c.parsed.decoded.lineEndings.join(','),
        format: c.parsed.doc.format,
        labelDate: labelDateOf(c.path),
        editionId,
        role: isPrimary ? 'primary' : 'duplicate',
        differing,
        report: {
          identicalCopies: copies,
          fidelity: c.fidelity,
          counts: countsOf(c.parsed.doc),
          unaccounted: c.parsed.doc.accounting.unaccounted.length,
          warnings: c.parsed.doc.warnings.map((w) => `${w.line ?? '-'}: ${w.message}`),
        },
      });
    }
    const unaccounted = doc.accounting.unaccounted.length;
    report.editions.push({
      family,
      effectiveDate: first.date,
      label: '',
      official: true,
      status: existing ? (replace ? 'replaced' : 'merged') : 'added',
      primary: replace ? best.path : '(previously stored file)',
      files,
      counts: countsOf(doc),
      unaccountedLines: unaccounted,
      warnings: [
        ...warnings,
        ...doc.warnings.map((w) => `${best.path}${w.line === null ? '' : `:${w.line}`}: ${w.message}`),
      ],
    });
  }
}

function greater(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return false;
}
