import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { CopyGate } from './CopyGate.js';
import { startPdfReadAhead } from './pdfReadAhead.js';
import { parseTask, replyOf, type ParseReply, type ParseTask } from './parseTask.js';
import type { WorkerRequest } from './parseWorker.js';

/** Inputs being parsed. */
export interface ParsePool {
  /** Settles when every input is parsed. */
  parsed: Promise<void>;
  /** Threads of the pool that ended before it (the PDF read-ahead thread): their ids and CPU seconds. */
  endedThreadsCpu(): Map<number, number>;
  close(): Promise<void>;
}

/**
 * Inputs sent to a worker before its first reply is taken. This thread sends the next input only when it
 * takes a reply, which waits while it stores an edition: with two, the worker had parsed both and waited for
 * it some 4-6 s of a full ingest; with four, 1.5 s (more saved no more). A local file is read by the worker
 * itself when it starts on it, so an input waiting costs nothing; a reply waiting holds its serialized copy
 * (peak RSS of a full ingest with the policy documents unchanged at 333-336 MB).
 */
const IN_FLIGHT = 4;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** How many parse workers a run of `inputs` inputs takes: one per core but one, and one per four inputs (none: parsed inline). */
export function parseWorkerCount(inputs: number): number {
  return Math.min(Math.max(1, availableParallelism() - 1), Math.floor(inputs / 4));
}

/**
 * Parse worker threads, started before their inputs are known: they load their modules while the
 * inputs are read (some 0.2-0.6 s of a full ingest). A worker that fails or stops before close()
 * is kept as the failure, for startParsing to report.
 */
export class ParseWorkers {
  readonly threads: Worker[];
  private failure: Error | null = null;
  private onFailure: ((e: Error) => void) | null = null;
  // workers being ended by close(): their exit is no failure
  private readonly ending = new Set<Worker>();

  constructor(count: number, workerMemoryMb?: number) {
    // A worker keeps little between files, but V8 lets a heap grow to four times what survived its last
    // collection when the limit is 2 GB or more, 1.6 times at 1 GB. Its young generation has 8 MB
    // semi-spaces (V8's default is 16): with 4 MB, a parse outlived more scavenges, and was promoted
    // and marked (1.3% more instructions parsing 60 files); 12 MB saved more but cost 25-40 MB resident.
    const limits = { resourceLimits: { maxYoungGenerationSizeMb: 24, maxOldGenerationSizeMb: workerMemoryMb ?? 1024 } };
    this.threads = Array.from({ length: count }, () => new Worker(new URL('./parseWorker.js', import.meta.url), limits));
    for (const w of this.threads) {
      w.on('error', (e) => this.fail(new Error(`a parse worker failed: ${e.message}`)));
      w.on('exit', (code) => {
        if (!this.ending.has(w)) this.fail(new Error(`a parse worker stopped (exit code ${code})`));
      });
    }
  }

  /** Calls `f` with the first failure of a worker, now if one failed already. */
  whenFailed(f: (e: Error) => void): void {
    this.onFailure = f;
    if (this.failure) f(this.failure);
  }

  /** Ends the workers from the `from`-th on (all by default). */
  async close(from = 0): Promise<void> {
    const ending = this.threads.slice(from);
    for (const w of ending) this.ending.add(w);
    await Promise.all(ending.map((w) => w.terminate()));
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.onFailure?.(e);
  }
}

/**
 * Starts parsing tasks on the parse `workers` (as many as parseWorkerCount gives for the tasks; the
 * others are ended; none: the tasks are parsed inline); `onParsed` hears of
 * each outcome as it arrives, so the caller can store editions while the rest are parsed.
 * Workers keep no documents: each reply carries a document's summary and serialized copy (left out
 * when a copy of the same edition the worker sent before outranks it; a fragment whole).
 * The pool takes the tasks over: it empties each one's bytes once a worker has them, so an
 * ingest does not hold every input twice. Workers take the inputs in `order` (default: as given),
 * each the next one when it is free. PDFs missing from the PDF text
 * cache are read ahead on a thread of their own (see startPdfReadAhead).
 */
export function startParsing(
  tasks: ParseTask[],
  workerSet: ParseWorkers,
  onParsed?: (index: number, outcome: ParseReply) => void,
  opts: { order?: number[] } = {},
): ParsePool {
  const order = opts.order ?? tasks.map((_, i) => i);
  const count = Math.min(workerSet.threads.length, parseWorkerCount(tasks.length));
  // inputs already stored are not parsed again: the workers they would have had go now
  void workerSet.close(count);
  if (count < 1) return inlinePool(tasks, order, onParsed);
  const workers = workerSet.threads.slice(0, count);
  const readAhead = startPdfReadAhead(tasks, order);
  const pending = new Map<number, Pending>();
  // A worker that dies (an error it did not catch, out of memory, killed) fails every request under
  // way and every later one: the run stops with the reason instead of waiting forever.
  let dead: Error | null = null;
  workerSet.whenFailed((e) => {
    dead ??= e;
    for (const p of pending.values()) p.reject(dead);
    pending.clear();
  });
  for (const w of workers) {
    w.on('message', (m: { id: number; result: unknown }) => {
      pending.get(m.id)?.resolve(m.result);
      pending.delete(m.id);
    });
  }
  let next = 0;
  const send = (w: Worker): { index: number; reply: Promise<ParseReply> } | null => {
    if (next >= order.length) return null;
    const index = order[next++]!;
    const reply = new Promise<ParseReply>((resolve, reject) => {
      if (dead) return reject(dead);
      pending.set(index, { resolve: resolve as (v: unknown) => void, reject });
      const claim = readAhead?.claimOf(index);
      w.postMessage({ id: index, task: claim ? { ...tasks[index]!, readAhead: claim } : tasks[index]! } satisfies WorkerRequest);
    });
    // read ahead: should the run stop before it is awaited, its failure is the one already reported
    reply.catch(() => {});
    // the worker has its copy of the bytes now
    tasks[index] = { ...tasks[index]!, bytes: null };
    return { index, reply };
  };
  // IN_FLIGHT inputs per worker, the next one sent as soon as a reply arrives: the worker parses
  // while this thread stores what it sent before, however long that takes.
  const parsed = Promise.all(
    workers.map(async (w) => {
      const inFlight = Array.from({ length: IN_FLIGHT }, () => send(w)).filter((s) => s !== null);
      for (let current = inFlight.shift(); current; current = inFlight.shift()) {
        const outcome = await current.reply;
        const next = send(w);
        if (next) inFlight.push(next);
        onParsed?.(current.index, outcome);
      }
    }),
  ).then(() => undefined);
  return {
    parsed,
    endedThreadsCpu: () => new Map(readAhead?.cpu ? [readAhead.cpu] : []),
    async close() {
      await Promise.all([workerSet.close(), readAhead?.close()]);
    },
  };
}

function inlinePool(tasks: ParseTask[], order: number[], onParsed?: (index: number, outcome: ParseReply) => void): ParsePool {
  const gate = new CopyGate();
  const parsed = (async () => {
    for (const i of order) {
      // one input per macrotask, like the workers' replies
      await new Promise((r) => setImmediate(r));
      onParsed?.(i, replyOf(await parseTask(tasks[i]!), tasks[i]!, gate));
    }
  })();
  return { parsed, endedThreadsCpu: () => new Map(), close: async () => {} };
}
