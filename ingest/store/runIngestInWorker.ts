import { Worker } from 'node:worker_threads';
import { IngestError } from '../parse/IngestError.js';
import type { IngestWorkerMessage, WorkerIngestOptions } from './ingestWorker.js';
import type { IngestReport } from './runIngest.js';

// The thread that stores what the parse workers parse holds some 20-40 MB, but V8 lets a heap
// grow to four times what survives a collection (plus a 32 MB young generation): that thread's
// heap alone reached 190 MB in some runs. In a worker its limits can be set: 8 MB semi-spaces,
// and a 2 GB old-generation limit, under which V8 grows a heap to at most twice what survives.
const LIMITS = { maxYoungGenerationSizeMb: 24, maxOldGenerationSizeMb: 2047 };

/**
 * Runs an ingest (runIngest) on a worker thread with a small V8 heap, the calling thread only
 * relaying its progress; rejects as runIngest does (an IngestError stays one), and when the
 * worker itself fails.
 */
export function runIngestInWorker(opts: WorkerIngestOptions): Promise<IngestReport> {
  const { onProgress, onLockWait, ...data } = opts;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./ingestWorker.js', import.meta.url), { workerData: data, resourceLimits: LIMITS });
    let settled = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      f();
    };
    worker.on('message', (m: IngestWorkerMessage) => {
      if (m.type === 'progress') onProgress?.(m.done, m.total, m.current);
      else if (m.type === 'lockWait') onLockWait?.(m.waitMs);
      else if (m.type === 'done') settle(() => resolve(m.report));
      else settle(() => reject(m.source !== undefined && m.reason !== undefined ? new IngestError(m.source, m.reason) : new Error(m.message)));
    });
    worker.on('error', (e) => settle(() => reject(new Error(`the ingest worker failed: ${e.message}`))));
    worker.on('exit', (code) => settle(() => reject(new Error(`the ingest worker stopped (exit code ${code})`))));
  });
}
