import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { HeavyTask, HeavyResult, WorkerSetup } from './heavyTask.js';
import { projectRoot } from '../core/projectFiles.js';
import { log } from './logger.js';

/** The kinds of costly work, each with its own admission limit and time budget. */
export type HeavyKind = 'diff' | 'history' | 'page' | 'export' | 'citations' | 'graphql';

/**
 * Admission and budget of one kind: at most `queue` requests waiting or running; one waits at most
 * `waitMs` for a thread, then runs at most `budgetMs`.
 */
export interface KindLimit {
  queue: number;
  waitMs: number;
  budgetMs: number;
}

/** Default limits per kind (a process has one heavy thread by default: these bound the wait behind it). */
const HEAVY_LIMITS: Record<HeavyKind, KindLimit> = {
  diff: { queue: 8, waitMs: 10_000, budgetMs: 15_000 },
  history: { queue: 16, waitMs: 10_000, budgetMs: 10_000 },
  page: { queue: 16, waitMs: 10_000, budgetMs: 10_000 },
  export: { queue: 4, waitMs: 10_000, budgetMs: 15_000 },
  citations: { queue: 8, waitMs: 10_000, budgetMs: 10_000 },
  graphql: { queue: 16, waitMs: 10_000, budgetMs: 10_000 },
};

/** Why costly work was not done: the kind's queue was full (busy) or the work ran past its budget. */
export class HeavyRefusal extends Error {
  constructor(
    readonly reason: 'busy' | 'budget',
    readonly kind: HeavyKind,
    message: string,
    /** Seconds a client should wait before asking again. */
    readonly retryAfter: number,
  ) {
    super(message);
  }
}

/** Options of a HeavyPool. */
export interface HeavyPoolOptions {
  /** What each worker thread opens: a database file, or a serialized database (tests, in-memory databases). */
  setup: WorkerSetup;
  /** Worker threads (default 1). */
  threads?: number;
  limits?: Partial<Record<HeavyKind, Partial<KindLimit>>>;
  /** Old-generation heap limit of a worker thread, MB (default 192). */
  maxOldGenerationSizeMb?: number;
}

/**
 * Costly requests (far diffs, histories, long pages, exports, costly GraphQL operations) run on
 * worker threads that hold their own copy of the knowledge base, so the event loop that answers
 * cheap requests never waits on them. Each kind admits a bounded number of requests (beyond it:
 * HeavyRefusal 'busy') and each request has a time budget that really stops it: the thread
 * running it is terminated and replaced (HeavyRefusal 'budget').
 */
export class HeavyPool {
  private readonly pool: Piscina<HeavyTask & { started: MessagePort }, HeavyResult>;
  private readonly limits: Record<HeavyKind, KindLimit>;
  private readonly inFlight = new Map<HeavyKind, number>();

  constructor(opts: HeavyPoolOptions) {
    const threads = opts.threads ?? 1;
    this.limits = { ...HEAVY_LIMITS };
    for (const [k, v] of Object.entries(opts.limits ?? {})) this.limits[k as HeavyKind] = { ...HEAVY_LIMITS[k as HeavyKind], ...v };
    this.pool = new Piscina<HeavyTask & { started: MessagePort }, HeavyResult>({
      // (found from the project's root: this module may be part of a bundle elsewhere, scripts/buildCli.mjs)
      filename: pathToFileURL(join(projectRoot(), 'dist', 'src', 'server', 'heavyThread.js')).href,
      minThreads: threads,
      maxThreads: threads,
      // a worker loads the whole knowledge base: keep it, never retire it for idleness
      idleTimeout: Number.MAX_SAFE_INTEGER,
      maxQueue: Infinity,
      workerData: opts.setup,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb ?? 192 },
      // An idle thread waits on the port's messages, not in Atomics.wait (piscina's default): that wait blocks the
      // thread's event loop, so what a task left for later (light-my-request's setImmediate callbacks, each holding
      // its answer) piled up while tasks kept coming; a crawl of the neighbour diffs ran the thread out of heap.
      atomics: 'disabled',
    });
    // a worker that dies (out of memory, terminated) is replaced by piscina; its task fails on its own
    this.pool.on('error', (err: unknown) => log.error({ err }, 'heavy worker error'));
  }

  /** Resolves once every worker thread has loaded its knowledge base. */
  async ready(): Promise<void> {
    await Promise.all(
      Array.from({ length: this.pool.maxThreads }, () =>
        this.pool.run({ method: 'PING', url: '', headers: {}, publicUrl: '' } as HeavyTask & { started: MessagePort }),
      ),
    );
  }

  /** Requests of a kind waiting or running now. */
  load(kind: HeavyKind): number {
    return this.inFlight.get(kind) ?? 0;
  }

  /** Runs a task of a kind on a worker thread, within the kind's admission limit and time budget. */
  async run(kind: HeavyKind, task: HeavyTask): Promise<HeavyResult> {
    const limit = this.limits[kind];
    const n = this.load(kind);
    if (n >= limit.queue) {
      throw new HeavyRefusal('busy', kind, `the server is busy with ${n} costly ${kind} requests; try again in a few seconds`, 5);
    }
    this.inFlight.set(kind, n + 1);
    // The wait for a thread and the run are bounded apart: the worker says when it starts the task.
    const { port1, port2 } = new MessageChannel();
    const stop = new AbortController();
    let overrun: 'wait' | 'budget' | null = null;
    let timer = setTimeout(() => {
      overrun = 'wait';
      stop.abort();
    }, limit.waitMs);
    port1.once('message', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        overrun = 'budget';
        stop.abort();
      }, limit.budgetMs);
    });
    try {
      return await this.pool.run({ ...task, started: port2 }, { signal: stop.signal, transferList: [port2] });
    } catch (e) {
      if (overrun === 'wait') {
        throw new HeavyRefusal('busy', kind, `the server is busy: no worker was free for ${limit.waitMs / 1000} s; try again in a few seconds`, 5);
      }
      if (overrun === 'budget') {
        log.warn({ kind, budgetMs: limit.budgetMs, method: task.method, url: task.url.slice(0, 200) }, 'a costly request ran past its budget and was stopped');
        throw new HeavyRefusal(
          'budget',
          kind,
          `the request took longer than ${limit.budgetMs / 1000} s and was stopped; ask for less (a narrower diff, one section)`,
          10,
        );
      }
      throw e;
    } finally {
      clearTimeout(timer);
      port1.close();
      this.inFlight.set(kind, this.load(kind) - 1);
    }
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
