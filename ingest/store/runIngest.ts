import { copyFileSync, existsSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { openReadOnlyDb, openWritableDb } from '../../src/db/openDb.js';
import { storeFormatProblem } from '../../src/db/storeFormat.js';
import { Writer } from './Writer.js';
import { Catalog } from '../../src/db/Catalog.js';
import { alignEditions, type Alignment } from '../../src/engine/align.js';
import type { DecodedText, ParsedDocument } from '../../src/core/types.js';
import { EditionGroups, type AlignablePair, type Candidate, type EditionReport } from './EditionGroups.js';
import { expectedInputDate } from './readWordDocument.js';
import { IngestError } from '../parse/IngestError.js';
import { lockDatabase } from './lockDatabase.js';
import { startParsing, type ParsePool } from './parsePool.js';
import type { ParseReply } from './parseTask.js';
import { storeDerived, storeReferences } from './storeDerived.js';
import { storeFragment, type FragmentReport } from './storeFragment.js';
import { editionDateOf, fetchInput, labelDateOf, readLocalInput, type LoadedInput, type InputRef, type Manifest } from './sources.js';

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
  const known = stored.hashes;
  const seen = new Map<string, string>();
  // Byte-identical copies (the two archives often hold the same file) are parsed once and reported as merged.
  const aliases = new Map<string, string[]>();
  const loaded: Array<Omit<LoadedInput, 'bytes'> & { bytes: Buffer | null; size: number }> = [];
  // guessed when read: a local file's bytes are then let go, and read again by the parse worker
  const expected: Array<string | null> = [];
  const guess = opts.expectedDate ?? expectedInputDate;
  let done = 0;
  const total = opts.inputs.length * 2;
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
  done = opts.inputs.length + (opts.inputs.length - loaded.length);
  phase('read');
  if (loaded.length === 0) return finish(report, started);
  // Downloaded bytes go to the parse pool, which lets go of each input once it is sent to a worker.
  const tasks = loaded.map((l) => ({ path: l.ref.location, bytes: l.bytes, size: l.size, sha256: l.sha256, contentType: l.contentType }));
  const inputs = loaded.map((l) => ({ location: l.ref.location, sha256: l.sha256, size: l.size }));
  loaded.length = 0;

  await writeAtomically(opts.dbFile, opts.maxPages, async (writer) => {
    const groups = new EditionGroups(writer, opts.manifest ?? null, aliases, expected);
    const fragments: Array<{ index: number; decoded: Omit<DecodedText, 'text'>; doc: ParsedDocument }> = [];
    // reported in input order, whichever worker finished first
    const parseRejections: Array<{ index: number; source: string; reason: string }> = [];
    // Consecutive editions aligned as they become final (null: one was let go; the lineage step aligns them).
    const alignments = new Map<string, { before: number; after: number; result: Alignment | null }>();
    // sides each stored document was aligned on: 1 with its successor, 2 with its predecessor, 4 let go
    const aligned = new Map<number, number>();
    const align = (p: AlignablePair): void => {
      const prev = alignments.get(p.key);
      if (prev && prev.before === p.before && prev.after === p.after) return;
      const rules = p.rules();
      alignments.set(p.key, { before: p.before, after: p.after, result: rules ? alignEditions(...rules) : null });
      aligned.set(p.before, (aligned.get(p.before) ?? 0) | 1);
      aligned.set(p.after, (aligned.get(p.after) ?? 0) | 2);
    };
    let pool: ParsePool | null = null;
    let failure: unknown = null;
    // Aligns the consecutive editions that are final; an edition aligned with both its neighbours is not needed again.
    const alignReady = (): void => {
      for (const p of groups.alignablePairs(stored.editions)) align(p);
      for (const [i, sides] of aligned) {
        if (sides !== 3) continue;
        groups.letGo(i);
        aligned.set(i, 4);
      }
      groups.compactRules();
    };
    // Stores what is ready, aligning editions as they are stored.
    const progress = (all: boolean): void => {
      if (groups.storeReady(all, alignReady) === 0 && !all) return;
      // references of the new texts now, while the workers are still parsing
      writer.db.transaction(() => storeReferences(writer))();
    };
    const onParsed = (i: number, o: ParseReply): void => {
      if (failure !== null) return;
      opts.onProgress?.(++done, total, inputs[i]!.location);
      try {
        let candidate: Candidate | null = null;
        if (!o.ok) parseRejections.push({ index: i, source: o.source, reason: o.reason });
        else if (!o.complete) fragments.push({ index: i, decoded: o.decoded, doc: o.doc });
        else {
          try {
            candidate = toCandidate(inputs[i]!, o, i);
          } catch (e) {
            if (!(e instanceof IngestError)) throw e;
            parseRejections.push({ index: i, source: e.source, reason: e.reason });
          }
        }
        groups.parsed(i, candidate);
        progress(false);
      } catch (e) {
        failure = e;
      }
    };
    pool = startParsing(tasks, onParsed, { order: parseOrder(expected), ...(opts.workerMemoryMb ? { workerMemoryMb: opts.workerMemoryMb } : {}) });
    // CPU seconds of each thread (by id) when the parse workers ended
    let workersCpu = new Map<number, number>();
    try {
      await pool.parsed;
      // the parse workers are done: their memory goes before the last editions and the lineage are stored
      workersCpu = threadCpu();
      await pool.close();
      if (failure !== null) throw failure;
      progress(true);
      opts.onProgress?.(total, total, '');
      phase('parse+store');
      writer.db.transaction(() => {
        for (const f of fragments.sort((a, b) => a.index - b.index)) {
          const { location: path, sha256, size } = inputs[f.index]!;
          const input = { path, sha256, size, decoded: f.decoded, doc: f.doc };
          try {
            // A nested transaction is a savepoint: a refused fragment leaves nothing behind.
            report.fragments.push(writer.db.transaction(() => storeFragment(writer, input, opts.edition ?? null))());
          } catch (e) {
            if (!(e instanceof IngestError)) throw e;
            report.rejected.push({ source: e.source, reason: e.reason });
          }
        }
        // replaced editions leave texts nothing refers to
        if (groups.replacedContent) writer.pruneOrphans();
      })();
      report.editions = groups.reports();
      report.rejected.push(...parseRejections.sort((a, b) => a.index - b.index).map(({ source, reason }) => ({ source, reason })));
      if (report.editions.length === 0 && report.fragments.length === 0) return false;
      phase('fragments');
      // alignments of the final chain whose documents are the ones stored
      const precomputed = new Map<string, Alignment>();
      for (const p of groups.alignablePairs(stored.editions)) {
        align(p);
        const al = alignments.get(p.key)!.result;
        if (al) precomputed.set(p.key, al);
      }
      phase('align');
      writer.db.transaction(() => {
        storeDerived(writer, precomputed);
        opts.afterStore?.(writer);
      })();
      phase('derived');
      return true;
    } finally {
      await pool.close();
      report.threadCpuSeconds = threadCpuSeconds(workersCpu);
    }
  });
  phase('commit');
  report.wrote = report.editions.length > 0 || report.fragments.length > 0;
  return finish(report, started);
}

/**
 * Deletes temporary copies of the database left by ingest runs that were killed. Called under
 * the ingest lock, so no other run is writing one: every copy is stale, even one whose process
 * id now belongs to another process.
 */
function removeStaleCopies(dbFile: string): void {
  const dir = dirname(resolve(dbFile));
  const prefix = `${basename(dbFile)}.tmp-`;
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length))) rmSync(join(dir, name), { force: true });
  }
}

/** CPU seconds used so far by each thread of this process, by thread id (Linux /proc; elsewhere none). */
function threadCpu(): Map<number, number> {
  const dir = '/proc/self/task';
  const out = new Map<number, number>();
  if (!existsSync(dir)) return out;
  for (const tid of readdirSync(dir)) {
    try {
      // utime and stime: fields 14 and 15, counted after the parenthesized thread name
      const f = readFileSync(`${dir}/${tid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      out.set(Number(tid), (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/**
 * CPU seconds of each thread of this process, the one running the ingest first; threads that ended
 * since `earlier` was taken (the parse workers) as they were then. Threads under 0.05 s are left out.
 */
function threadCpuSeconds(earlier: Map<number, number>): number[] {
  const all = new Map([...earlier, ...threadCpu()]);
  if (all.size === 0) return [];
  // this thread's id ("PID/task/TID"): the main thread's is the process id
  let self = process.pid;
  try {
    self = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    // no /proc/thread-self: the main thread
  }
  const others = [...all].filter(([tid, s]) => tid !== self && s >= 0.05).sort((a, b) => a[0] - b[0]);
  return [all.get(self) ?? 0, ...others.map(([, s]) => s)];
}

function finish(report: IngestReport, started: number): IngestReport {
  report.seconds = (performance.now() - started) / 1000;
  const usage = process.resourceUsage();
  report.peakRssMb = Math.round(usage.maxRSS / 1024);
  report.cpuSeconds = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1e4) / 100;
  return report;
}

/** The candidate a complete document makes, with the date it is filed under. */
function toCandidate(input: { location: string; sha256: string; size: number }, parsed: Extract<ParseReply, { complete: true }>, index: number): Candidate {
  const path = input.location;
  const { summary, decoded, fidelity, copy } = parsed;
  const warnings: string[] = [];
  if (decoded.damage) warnings.push(`${path}: ${decoded.damage}`);
  const label = labelDateOf(path);
  const date = editionDateOf(path, summary.effectiveDate);
  if (date === null) throw new IngestError(path, 'the document states no effective date and the file name has none');
  if (summary.effectiveDate === null) {
    warnings.push(`${path}: the document states no effective date; filed under its file-name date ${label}`);
  } else if (label !== null && label !== date) {
    const days = Math.round((Date.parse(label) - Date.parse(date)) / 86_400_000);
    warnings.push(`${path}: archive label ${label} disagrees with the document's own date ${date} (${days > 0 ? '+' : ''}${days} days); filed under ${date}`);
  }
  return { path, input, summary, decoded, copy, date, warnings, fidelity, index };
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

/**
 * Builds into a temporary copy and renames it over the database only on success, and only
 * when `fn` says something was written. A full disk (or quota) fails the run with a message
 * naming the copy being written; the database itself is never written, so it stays as it was.
 */
async function writeAtomically(dbFile: string, maxPages: number | undefined, fn: (writer: Writer) => Promise<boolean>): Promise<void> {
  const tmp = `${dbFile}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  try {
    if (existsSync(dbFile)) copyFileSync(dbFile, tmp);
    const db = openWritableDb(tmp);
    let keep = false;
    try {
      // The copy is thrown away on failure, so it needs no journal on disk; and one outer
      // transaction (each edition's db.transaction() inside it is a savepoint) writes every
      // page once at the end instead of at each edition's commit.
      db.pragma('journal_mode = MEMORY');
      if (maxPages !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPages)}`);
      db.exec('BEGIN');
      keep = await fn(new Writer(db));
      if (keep) {
        db.exec('COMMIT');
        db.pragma('optimize');
      }
    } finally {
      db.close();
    }
    if (keep) renameSync(tmp, dbFile);
    else rmSync(tmp, { force: true });
  } catch (e) {
    rmSync(tmp, { force: true });
    const why = fullDisk(e);
    if (why === null) throw e;
    const previous = existsSync(dbFile) ? 'the previous database is intact' : 'no database was created';
    throw new Error(`${why} while writing ${tmp} (the new copy of ${dbFile}); nothing was changed: ${previous}`, { cause: e });
  }
}

/** What a write error says about the disk ("the disk is full"), or null when it is some other error. */
function fullDisk(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'the disk is full';
  if (code === 'EDQUOT') return 'the disk quota is exceeded';
  return null;
}
