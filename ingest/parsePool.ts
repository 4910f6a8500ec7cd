import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Alignment } from '../src/engine/align.js';
import { parseTask, type ParseOutcome, type ParseTask } from './parseTask.js';
import type { WorkerRequest } from './parseWorker.js';

/** Parsed inputs, with the means to align pairs of them on the workers that hold them. */
export interface ParsePool {
  outcomes: ParseOutcome[];
  /** Aligns document `after` with document `before` (indices into outcomes); null if either failed to parse. */
  align(before: number, after: number): Promise<Alignment | null>;
  close(): Promise<void>;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Parses tasks on worker threads (one per core, at most `max`), in input order.
 * Each worker takes a contiguous run of the inputs (balanced by size): inputs
 * come in date order, so consecutive editions mostly live on the same worker,
 * which keeps them for `align`. Small batches are parsed inline.
 */
export async function parseAll(tasks: ParseTask[], onDone?: (n: number) => void, max = availableParallelism()): Promise<ParsePool> {
  const count = Math.min(max, Math.ceil(tasks.length / 4));
  const outcomes: ParseOutcome[] = new Array<ParseOutcome>(tasks.length);
  let finished = 0;
  if (count <= 1) {
    tasks.forEach((t, i) => {
      outcomes[i] = parseTask(t);
      onDone?.(++finished);
    });
    const { alignEditions } = await import('../src/engine/align.js');
    const { normalizeText } = await import('./normalize.js');
    const rulesOf = (i: number) => {
      const o = outcomes[i];
      return o?.ok ? o.doc.rules.map((r) => ({ ...r, norm: normalizeText(r.text) })) : null;
    };
    return {
      outcomes,
      align: async (b, a) => {
        const before = rulesOf(b);
        const after = rulesOf(a);
        return before && after ? alignEditions(before, after) : null;
      },
      close: async () => {},
    };
  }
  const workers = Array.from({ length: count }, () => new Worker(new URL('./parseWorker.js', import.meta.url)));
  const pending = new Map<number, Pending>();
  let nextId = 0;
  for (const w of workers) {
    w.on('message', (m: { id: number; result: unknown }) => {
      pending.get(m.id)?.resolve(m.result);
      pending.delete(m.id);
    });
    w.on('error', (e) => {
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    });
  }
  const request = <T>(w: Worker, msg: WorkerRequest): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      pending.set(msg.id, { resolve: resolve as (v: unknown) => void, reject });
      w.postMessage(msg);
    });

  // Contiguous runs balanced by size.
  const owner = new Int32Array(tasks.length);
  const total = tasks.reduce((n, t) => n + t.bytes.length, 0);
  let acc = 0;
  tasks.forEach((t, i) => {
    owner[i] = Math.min(count - 1, Math.floor((acc / total) * count));
    acc += t.bytes.length;
  });
  nextId = tasks.length;
  await Promise.all(
    workers.map(async (w, k) => {
      for (let i = 0; i < tasks.length; i++) {
        if (owner[i] !== k) continue;
        outcomes[i] = await request<ParseOutcome>(w, { type: 'parse', id: i, task: tasks[i]! });
        onDone?.(++finished);
      }
    }),
  );
  return {
    outcomes,
    async align(before, after) {
      if (!outcomes[before]?.ok || !outcomes[after]?.ok) return null;
      const w = workers[owner[after]!]!;
      if (owner[before] !== owner[after]) {
        const doc = (outcomes[before] as Extract<ParseOutcome, { ok: true }>).doc;
        await request(w, { type: 'adopt', id: nextId++, docId: before, doc });
        owner[before] = owner[after]!;
      }
      return request<Alignment | null>(w, { type: 'align', id: nextId++, before, after });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
