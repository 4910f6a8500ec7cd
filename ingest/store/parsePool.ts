import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AlignMethod, AlignRule, Alignment } from '../../src/engine/align.js';
import { parseTask, replyOf, type ParseReply, type ParseTask } from './parseTask.js';
import type { WorkerRequest } from './parseWorker.js';
import type { RuleNode } from '../../src/core/types.js';

/** Inputs being parsed, with the means to align pairs of them on the workers that hold them. */
export interface ParsePool {
  /** Settles when every input is parsed. */
  parsed: Promise<void>;
  /** Aligns document `after` with document `before` (indices into outcomes, both parsed); null if either failed. */
  align(before: number, after: number): Promise<Alignment | null>;
  /** Lets the workers drop documents no longer needed (aligning them later gives null). */
  release(indices: number[]): void;
  /** Document `index` was changed on this thread (repaired): the worker holding it takes the new rules. */
  replace(index: number, rules: RuleNode[]): void;
  close(): Promise<void>;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Starts parsing tasks on worker threads (one per core, at most `max`); `onParsed` hears of
 * each outcome as it arrives, so the caller can store editions while the rest are parsed.
 * The pool keeps no parsed document itself: the workers keep each one's rules for `align`, and
 * reply with its summary and serialized copy (a fragment whole).
 * The pool takes the tasks over: it empties each one's bytes once a worker has them, so an
 * ingest does not hold every input twice.
 * Each worker takes a contiguous run of the inputs (balanced by size): inputs come in
 * date order, so consecutive editions mostly live on the same worker, which keeps them for
 * `align`. Small batches are parsed inline.
 */
export function startParsing(
  tasks: ParseTask[],
  onParsed?: (index: number, outcome: ParseReply) => void,
  opts: { max?: number; workerMemoryMb?: number } = {},
): ParsePool {
  const count = Math.min(opts.max ?? availableParallelism(), Math.ceil(tasks.length / 4));
  // which inputs parsed into a complete document (1), held by a worker; the rest did not (0) or are not parsed yet
  const parsedOk = new Uint8Array(tasks.length);
  if (count <= 1) return inlinePool(tasks, parsedOk, onParsed);
  const limits = opts.workerMemoryMb ? { resourceLimits: { maxOldGenerationSizeMb: opts.workerMemoryMb } } : {};
  const workers = Array.from({ length: count }, () => new Worker(new URL('./parseWorker.js', import.meta.url), limits));
  const pending = new Map<number, Pending>();
  // A worker that dies (an error it did not catch, out of memory, killed) fails every request under
  // way and every later one: the run stops with the reason instead of waiting forever.
  let dead: Error | null = null;
  let closing = false;
  const fail = (e: Error): void => {
    dead ??= e;
    for (const p of pending.values()) p.reject(dead);
    pending.clear();
  };
  for (const w of workers) {
    w.on('message', (m: { id: number; result: unknown }) => {
      pending.get(m.id)?.resolve(m.result);
      pending.delete(m.id);
    });
    w.on('error', (e) => fail(new Error(`a parse worker failed: ${e.message}`)));
    w.on('exit', (code) => {
      if (!closing) fail(new Error(`a parse worker stopped (exit code ${code})`));
    });
  }
  let nextId = tasks.length;
  // documents being moved between workers (each settles once its alignment is done)
  const moving = new Set<Promise<void>>();
  // An alignment's method names arrive as a string each, per rule: the run keeps every alignment
  // until lineage is stored, so they are shared instead.
  const methods = new Map<string, AlignMethod>();
  const shareMethods = (al: Alignment | null): Alignment | null => {
    if (al) {
      al.method.forEach((m, i) => {
        const known = methods.get(m);
        if (known === undefined) methods.set(m, m);
        else al.method[i] = known;
      });
    }
    return al;
  };
  const request = <T>(w: Worker, msg: Extract<WorkerRequest, { id: number }>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (dead) return reject(dead);
      pending.set(msg.id, { resolve: resolve as (v: unknown) => void, reject });
      w.postMessage(msg);
    });

  // Contiguous runs balanced by size; `home` is where a parsed document lives now.
  const home = new Int32Array(tasks.length);
  const runs: number[][] = workers.map(() => []);
  const total = tasks.reduce((n, t) => n + t.size, 0);
  let acc = 0;
  tasks.forEach((t, i) => {
    const k = Math.min(count - 1, Math.floor((acc / total) * count));
    home[i] = k;
    runs[k]!.push(i);
    acc += t.size;
  });
  // Two inputs in flight per worker: it parses the next while this thread stores the last.
  const parsed = Promise.all(
    workers.map(async (w, k) => {
      const run = runs[k]!;
      const send = (n: number): Promise<ParseReply> | null => {
        if (n >= run.length) return null;
        const i = run[n]!;
        const sent = request<ParseReply>(w, { type: 'parse', id: i, task: tasks[i]! });
        // read ahead: should the run stop before it is awaited, its failure is the one already reported
        sent.catch(() => {});
        // the worker has its copy of the bytes now
        tasks[i] = { ...tasks[i]!, bytes: null };
        return sent;
      };
      let next = send(0);
      for (let n = 0; n < run.length; n++) {
        const current = next!;
        next = send(n + 1);
        const o = await current;
        parsedOk[run[n]!] = o.ok && o.complete ? 1 : 0;
        onParsed?.(run[n]!, o);
      }
    }),
  ).then(() => undefined);
  return {
    parsed,
    align(before, after) {
      if (!parsedOk[before] || !parsedOk[after]) return Promise.resolve(null);
      const k = home[after]!;
      const w = workers[k]!;
      if (home[before] !== k) {
        // the document moves from the worker that holds it to this one, through here but not kept here
        const from = workers[home[before]!]!;
        home[before] = k;
        const moved = request<AlignRule[] | null>(from, { type: 'export', id: nextId++, docId: before }).then((rules) => {
          if (rules === null) return null;
          // adopt and align are sent together, before any release asked for meanwhile (see release)
          void request(w, { type: 'adopt', id: nextId++, docId: before, rules }).catch(() => {});
          return request<Alignment | null>(w, { type: 'align', id: nextId++, before, after }).then(shareMethods);
        });
        const sent = moved.then(
          () => undefined,
          () => undefined,
        );
        moving.add(sent);
        void sent.then(() => moving.delete(sent));
        return moved;
      }
      return request<Alignment | null>(w, { type: 'align', id: nextId++, before, after }).then(shareMethods);
    },
    replace(index, rules) {
      if (!parsedOk[index]) return;
      request(workers[home[index]!]!, { type: 'adopt', id: nextId++, docId: index, rules }).catch(() => {});
    },
    release(indices) {
      // a document may have been moved to another worker for an alignment: every worker hears it,
      // after the alignments of documents on their way have been sent
      const post = (): void => {
        for (const w of workers) w.postMessage({ type: 'release', indices } satisfies WorkerRequest);
      };
      if (moving.size === 0) post();
      else void Promise.all(moving).then(post);
    },
    async close() {
      closing = true;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

function inlinePool(tasks: ParseTask[], parsedOk: Uint8Array, onParsed?: (index: number, outcome: ParseReply) => void): ParsePool {
  // a small batch: its documents' rules are kept here for align, until released
  const docs = new Map<number, RuleNode[]>();
  const parsed = (async () => {
    for (let i = 0; i < tasks.length; i++) {
      // one input per macrotask, like the workers' replies
      await new Promise((r) => setImmediate(r));
      const o = await parseTask(tasks[i]!);
      parsedOk[i] = o.ok && o.doc.complete ? 1 : 0;
      if (o.ok && o.doc.complete) docs.set(i, o.doc.rules);
      onParsed?.(i, replyOf(o));
    }
  })();
  const rulesOf = async (i: number) => {
    const rules = docs.get(i);
    if (!rules) return null;
    const { normalizeText } = await import('../../src/core/normalize.js');
    return rules.map((r) => ({ ...r, norm: normalizeText(r.text) }));
  };
  return {
    parsed,
    async align(b, a) {
      const { alignEditions } = await import('../../src/engine/align.js');
      const before = await rulesOf(b);
      const after = await rulesOf(a);
      return before && after ? alignEditions(before, after) : null;
    },
    release: (indices) => {
      for (const i of indices) docs.delete(i);
    },
    replace: (index, rules) => {
      if (docs.has(index)) docs.set(index, rules);
    },
    close: async () => {},
  };
}
