import { existsSync } from 'node:fs';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { storeFormatProblem } from '../../src/db/storeFormat.js';
import type { Writer } from './Writer.js';
import { Catalog } from '../../src/db/Catalog.js';
import type { DecodedText, ParsedDocument } from '../../src/core/types.js';
import { ChainAlignments } from './ChainAlignments.js';
import { EditionGroups, type Candidate, type EditionReport } from './EditionGroups.js';
import { expectedInputDate } from './readWordDocument.js';
import { IngestError } from '../parse/IngestError.js';
import { lockDatabase } from './lockDatabase.js';
import { ParseWorkers, parseWorkerCount, startParsing } from './parsePool.js';
import type { ParseReply, ParseTask } from './parseTask.js';
import { OfficialCopies, type CopyProvenance } from './copyProvenance.js';
import { storeDerived, storeReferences } from './storeDerived.js';
import { storeFragment, type FragmentReport } from './storeFragment.js';
import { threadCpu, threadCpuSeconds } from './threadCpu.js';
import { removeStaleCopies, writeAtomically } from './writeAtomically.js';
import { editionDateOf, fetchInput, labelDateOf, readLocalInput, type LoadedInput, type InputRef, type Manifest } from './sources.js';
import { daysBetween } from '../../src/core/daysBetween.js';

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
  /**
   * Guesses an input's effective date before it is parsed (default: `expectedDate`). The guess only
   * decides when an edition can be stored; a wrong one makes a later file join an edition stored already.
   */
  expectedDate?: (location: string, bytes: Uint8Array) => string | null;
  /** Milliseconds to wait for another ingest of the same database to finish (default DEFAULT_LOCK_WAIT_MS; 0: fail at once). */
  lockWaitMs?: number;
  /** Called once when another ingest holds the database and this run starts waiting for it. */
  onLockWait?: (waitMs: number) => void;
  /** Milliseconds a download may receive nothing before it is rejected (default DEFAULT_DOWNLOAD_TIMEOUT_MS). */
  downloadTimeoutMs?: number;
  /** Folder of the PDF text cache (see pdfTextCache; default: none): PDFs read before are not read again. */
  pdfCache?: string | null;
  /** Old-generation heap limit of each parse worker, MB (default: V8's); a worker over it stops the run. */
  workerMemoryMb?: number;
  /**
   * Pages the copy being built may hold (SQLite's max_page_count; default: no limit): a run that
   * would grow it past them fails as on a full disk. Tests use it to fill the disk portably.
   */
  maxPages?: number;
}

/** How long an ingest waits by default for another one writing the same database. */
export const DEFAULT_LOCK_WAIT_MS = 120_000;

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
  /** CPU seconds of each thread of this process (the one that ran the ingest first), where the OS tells. */
  threadCpuSeconds?: number[];
  /** Wall seconds spent in each phase (read, parse, store, align wait, derived, finish). */
  phases: Record<string, number>;
}

/**
 * Ingests inputs into the database atomically: everything is written into a copy of the
 * database that replaces the original only when the whole run succeeded. Files already
 * stored (same sha256) are skipped. Inputs are parsed on worker threads; each edition is
 * stored (in its own transaction, after its files are parsed) as soon as no input still
 * being parsed can belong to it, so storing overlaps parsing. One run at a time writes a
 * database: the run holds its lock from reading what is stored to the rename (see lockDatabase).
 */
export async function runIngest(opts: IngestOptions): Promise<IngestReport> {
  const lock = await lockDatabase(opts.dbFile, { waitMs: opts.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS, onWait: opts.onLockWait });
  try {
    removeStaleCopies(opts.dbFile);
    return await ingestLocked(opts);
  } finally {
    lock.release();
  }
}

/** The inputs of a run once read: those to parse, as parse tasks, and what the run reports of each. */
interface ReadInputs {
  tasks: ParseTask[];
  inputs: Array<{ location: string; sha256: string; size: number; provenance: CopyProvenance }>;
  /** Byte-identical copies of an input (the two archives often hold the same file): parsed once, reported as merged. */
  aliases: Map<string, string[]>;
  /** Each input's expected effective date (see IngestOptions.expectedDate), guessed when read. */
  expected: Array<string | null>;
}

/** What the parse-and-store phase leaves for the phases after it. */
interface Parsed {
  fragments: Array<{ index: number; decoded: Omit<DecodedText, 'text'>; doc: ParsedDocument }>;
  rejections: Array<{ index: number; source: string; reason: string }>;
}

/**
 * An ingest under the lock, in named phases: read, parse+store, fragments, align, derived, commit.
 * Everything is written in writeAtomically's one transaction, with no savepoint inside it but a
 * fragment's (a refused fragment must leave nothing; any other failure throws the copy away): in
 * journal_mode MEMORY a savepoint keeps the original of every page it changes in memory, and each
 * statement that ends inside it walks that sub-journal, so a savepoint around an edition or the lineage
 * cost the run a copy of the pages it wrote and time quadratic in them (75-90 MB and some 7 s of CPU in a full ingest).
 */
async function ingestLocked(opts: IngestOptions): Promise<IngestReport> {
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
  // started now, they load their modules while the inputs are read
  const workers = new ParseWorkers(parseWorkerCount(opts.inputs.length), opts.workerMemoryMb);
  try {
    const read = await readInputs(opts, stored.hashes, report);
    phase('read');
    if (read.tasks.length === 0) return finish(report, started);

    await writeAtomically(opts.dbFile, opts.maxPages, async (writer) => {
      const groups = new EditionGroups(writer, opts.manifest ?? null, read.aliases, read.expected);
      const chain = new ChainAlignments(groups, stored.editions);
      // CPU seconds of each thread (by id) when the parse workers ended
      const workersCpu = new Map<number, number>();
      try {
        const parsed = await parseAndStore(writer, groups, chain, read, workers, opts, workersCpu);
        phase('parse+store');
        // a rendition stored before the official edition it renders, stored now, joins it
        groups.absorbStoredRenditions();
        storeFragments(writer, parsed.fragments, read.inputs, opts.edition ?? null, report);
        // replaced editions leave texts nothing refers to
        if (groups.replacedContent) writer.pruneOrphans();
        report.editions = groups.reports();
        report.rejected.push(...parsed.rejections.sort((a, b) => a.index - b.index).map(({ source, reason }) => ({ source, reason })));
        if (report.editions.length === 0 && report.fragments.length === 0) return false;
        phase('fragments');
        const alignments = chain.final();
        phase('align');
        storeDerived(writer, alignments);
        opts.afterStore?.(writer);
        phase('derived');
        return true;
      } finally {
        report.threadCpuSeconds = threadCpuSeconds(workersCpu);
      }
    });
  } finally {
    await workers.close();
  }
  phase('commit');
  report.wrote = report.editions.length > 0 || report.fragments.length > 0;
  return finish(report, started);
}

/**
 * Reads every input (a download or a local file), skipping those already stored or identical to one
 * read before and rejecting those that cannot be read; guesses the date of each of the others.
 */
async function readInputs(opts: IngestOptions, known: Set<string>, report: IngestReport): Promise<ReadInputs> {
  const seen = new Map<string, string>();
  const aliases = new Map<string, string[]>();
  const loaded: Array<Omit<LoadedInput, 'bytes'> & { bytes: Buffer | null; size: number }> = [];
  // guessed when read: a local file's bytes are then let go, and read again by the parse worker
  const expected: Array<string | null> = [];
  const guess = opts.expectedDate ?? expectedInputDate;
  const total = opts.inputs.length * 2;
  let done = 0;
  for (const ref of opts.inputs) {
    opts.onProgress?.(done++, total, ref.location);
    try {
      const input = ref.kind === 'url' ? await fetchInput(ref, opts.downloadTimeoutMs) : readLocalInput(ref);
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
        expected.push(guess(ref.location, input.bytes));
        loaded.push(ref.kind === 'file' ? { ...input, size: input.bytes.length, bytes: null } : { ...input, size: input.bytes.length });
      }
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      report.rejected.push({ source: e.source, reason: e.reason });
    }
  }
  // Downloaded bytes go to the parse pool, which lets go of each input once it is sent to a worker.
  const official = new OfficialCopies(opts.manifest ?? null);
  const inputs = loaded.map((l) => ({ location: l.ref.location, sha256: l.sha256, size: l.size, provenance: official.provenance(l.ref.location, l.sha256) }));
  const tasks = loaded.map((l, i) => ({
    path: l.ref.location,
    bytes: l.bytes,
    size: l.size,
    sha256: l.sha256,
    contentType: l.contentType,
    official: inputs[i]!.provenance.official,
    pdfCache: opts.pdfCache ?? null,
  }));
  return { tasks, inputs, aliases, expected };
}

/**
 * Parses the inputs on worker threads and stores each edition as soon as no input still being parsed
 * can belong to it, aligning consecutive editions as they are stored and storing the new texts'
 * references while the workers parse; then, the workers gone, stores what is left. Fragments and
 * rejections are left for the next phases. `workersCpu` gets each thread's CPU seconds when the workers ended.
 */
async function parseAndStore(
  writer: Writer,
  groups: EditionGroups,
  chain: ChainAlignments,
  read: ReadInputs,
  workers: ParseWorkers,
  opts: IngestOptions,
  workersCpu: Map<number, number>,
): Promise<Parsed> {
  const { inputs } = read;
  const out: Parsed = { fragments: [], rejections: [] };
  // progress counts each input read, then each parsed (skipped ones were done when read)
  const total = opts.inputs.length * 2;
  let done = opts.inputs.length + (opts.inputs.length - inputs.length);
  let failure: unknown = null;
  const progress = (all: boolean): void => {
    if (groups.storeReady(all, () => chain.alignReady()) === 0 && !all) return;
    // references of the new texts now, while the workers are still parsing
    storeReferences(writer);
  };
  const onParsed = (i: number, o: ParseReply): void => {
    if (failure !== null) return;
    opts.onProgress?.(++done, total, inputs[i]!.location);
    try {
      let candidate: Candidate | null = null;
      if (!o.ok) out.rejections.push({ index: i, source: o.source, reason: o.reason });
      else if (!o.complete) out.fragments.push({ index: i, decoded: o.decoded, doc: o.doc });
      else {
        try {
          candidate = toCandidate(inputs[i]!, o, i);
        } catch (e) {
          if (!(e instanceof IngestError)) throw e;
          out.rejections.push({ index: i, source: e.source, reason: e.reason });
        }
      }
      groups.parsed(i, candidate);
      progress(false);
    } catch (e) {
      failure = e;
    }
  };
  const pool = startParsing(read.tasks, workers, onParsed, { order: parseOrder(read.expected) });
  try {
    await pool.parsed;
    // the parse workers are done: their memory goes before the last editions and the lineage are stored
    for (const [tid, s] of [...pool.endedThreadsCpu(), ...threadCpu()]) workersCpu.set(tid, s);
    await pool.close();
    if (failure !== null) throw failure;
    progress(true);
    opts.onProgress?.(total, total, '');
    return out;
  } finally {
    await pool.close();
  }
}

/** Stores the fragments (excerpts, scraped pages) in input order, each in a savepoint: a refused one leaves nothing behind. */
function storeFragments(writer: Writer, fragments: Parsed['fragments'], inputs: ReadInputs['inputs'], edition: string | null, report: IngestReport): void {
  for (const f of fragments.sort((a, b) => a.index - b.index)) {
    const { location: path, sha256, size } = inputs[f.index]!;
    const input = { path, sha256, size, decoded: f.decoded, doc: f.doc };
    try {
      report.fragments.push(writer.db.transaction(() => storeFragment(writer, input, edition))());
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      report.rejected.push({ source: e.source, reason: e.reason });
    }
  }
}

function finish(report: IngestReport, started: number): IngestReport {
  report.seconds = (performance.now() - started) / 1000;
  const usage = process.resourceUsage();
  report.peakRssMb = Math.round(usage.maxRSS / 1024);
  report.cpuSeconds = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1e4) / 100;
  return report;
}

/** The candidate a complete document makes, with the date it is filed under. */
function toCandidate(
  input: { location: string; sha256: string; size: number; provenance: CopyProvenance },
  parsed: Extract<ParseReply, { complete: true }>,
  index: number,
): Candidate {
  const path = input.location;
  const { summary, decoded, fidelity, copy } = parsed;
  const warnings: string[] = [];
  if (decoded.damage) warnings.push(`${path}: ${decoded.damage}`);
  for (const w of summary.warnings) if (w.code === 'date-corrected') warnings.push(`${path}: ${w.message}`);
  const label = labelDateOf(path);
  const date = editionDateOf(path, summary.effectiveDate);
  if (date === null) throw new IngestError(path, 'the document states no effective date and the file name has none');
  if (summary.effectiveDate === null) {
    warnings.push(`${path}: the document states no effective date; filed under its file-name date ${label}`);
  } else if (label !== null && label !== date) {
    const days = daysBetween(label, date);
    warnings.push(`${path}: archive label ${label} disagrees with the document's own date ${date} (${days > 0 ? '+' : ''}${days} days); filed under ${date}`);
  }
  return { path, provenance: input.provenance, input: { sha256: input.sha256, size: input.size }, summary, decoded, copy, date, warnings, fidelity, index };
}

/**
 * The order to parse inputs in: those whose date is unknown first (until they are parsed, no
 * edition can be stored), then by expected date, so each edition's files are parsed together.
 */
function parseOrder(expected: Array<string | null>): number[] {
  const key = (i: number): string => expected[i] ?? '';
  return expected.map((_, i) => i).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b));
}

/** What the database holds already: source file hashes and official editions ("family|date"). */
function storedState(dbFile: string): { hashes: Set<string>; editions: Set<string> } {
  if (!existsSync(dbFile)) return { hashes: new Set(), editions: new Set() };
  const db = openReadOnlyDb(dbFile);
  try {
    const problem = storeFormatProblem(db);
    if (problem) throw new IngestError(dbFile, problem);
    const catalog = new Catalog(db);
    return {
      hashes: catalog.sourceHashes(),
      editions: new Set(catalog.officialEditions().map((e) => `${e.family}|${e.effectiveDate}`)),
    };
  } finally {
    db.close();
  }
}
