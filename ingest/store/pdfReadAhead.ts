import { Worker } from 'node:worker_threads';
import { hasCachedPdfPages } from './pdfTextCache.js';

/** A PDF's place among those read ahead: the claims shared by the threads and its slot in them. */
export interface PdfClaim {
  claims: SharedArrayBuffer;
  slot: number;
}

/** One PDF for the read-ahead thread: its file, sha256, cache folder and claim slot. */
export interface ReadAheadJob {
  path: string;
  sha256: string;
  dir: string;
  slot: number;
}

// A slot's states: no thread has it; the read-ahead thread reads it; done (cached, or not a PDF it
// could read); the parse worker reads it itself.
export const FREE = 0;
export const READING = 1;
export const DONE = 2;
const PARSER = 3;

/** PDFs being read ahead into the PDF text cache. */
export interface PdfReadAhead {
  /** Each task's claim (by task index), for the PDFs read ahead. */
  claimOf(index: number): PdfClaim | undefined;
  /** The thread's id and CPU seconds once it is done (it ends then). */
  cpu: [tid: number, seconds: number] | null;
  close(): Promise<void>;
}

/**
 * Starts reading the local PDFs among `tasks` (parse tasks) that the PDF text cache lacks on a thread of their own,
 * in parse `order`, into the cache, so that PDFium's work (most of a cold ingest's) overlaps the
 * parsing and storing of the other inputs. A parse worker reaching such a PDF takes its pages from
 * the cache (see awaitReadAhead); one the thread has not started yet it reads itself. Null when
 * there is nothing to read.
 */
export function startPdfReadAhead(
  tasks: ReadonlyArray<{ path: string; bytes: Uint8Array | null; sha256?: string; pdfCache?: string | null }>,
  order: number[],
): PdfReadAhead | null {
  const jobs: ReadAheadJob[] = [];
  for (const i of order) {
    const t = tasks[i]!;
    if (!t.pdfCache || t.bytes !== null || t.sha256 === undefined || !/\.pdf$/i.test(t.path)) continue;
    if (!hasCachedPdfPages(t.pdfCache, t.sha256)) jobs.push({ path: t.path, sha256: t.sha256, dir: t.pdfCache, slot: i });
  }
  if (jobs.length === 0) return null;
  const claims = new SharedArrayBuffer(4 * tasks.length);
  const state = new Int32Array(claims);
  const slots = new Set(jobs.map((j) => j.slot));
  // a small heap: it holds one PDF's pages at a time (PDFium's own memory is the WASM instance's)
  const worker = new Worker(new URL('./pdfReadAheadWorker.js', import.meta.url), {
    workerData: { jobs, claims },
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 },
  });
  const out: PdfReadAhead = {
    claimOf: (index) => (slots.has(index) ? { claims, slot: index } : undefined),
    cpu: null,
    async close() {
      await worker.terminate();
    },
  };
  worker.on('message', (cpu: [number, number] | null) => {
    out.cpu = cpu;
  });
  // however the thread ends (done, failed, terminated), no parse worker may wait for a PDF it was reading
  worker.on('exit', () => {
    for (const slot of slots) if (Atomics.compareExchange(state, slot, READING, DONE) === READING) Atomics.notify(state, slot);
  });
  worker.on('error', () => {});
  return out;
}

/**
 * On a parse worker, before it reads a PDF read ahead: takes the PDF if the read-ahead thread has not
 * started it (false: the caller reads it), or waits until that thread is done with it (true: its pages
 * are then in the cache, unless it could not read them: the caller reads it and meets the same error).
 */
export function awaitReadAhead(claim: PdfClaim): boolean {
  const state = new Int32Array(claim.claims);
  const was = Atomics.compareExchange(state, claim.slot, FREE, PARSER);
  if (was === READING) Atomics.wait(state, claim.slot, READING);
  return was !== FREE;
}
