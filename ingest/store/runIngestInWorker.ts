import { Worker } from 'node:worker_threads';
import { IngestError } from '../parse/IngestError.js';
import type { IngestWorkerMessage, WorkerIngestOptions } from './ingestWorker.js';
import type { IngestReport } from './runIngest.js';

// The thread that stores what the parse workers parse holds some 20-60 MB, but V8 lets a heap grow
// past what survives a collection by a factor set by the old-generation limit: about 2 at 2 GB, 1.4
// at 512 MB (4 from 2 GB up). At 2 GB this thread's heap reached 95-120 MB in some cold ingests of the
// corpus with the policy documents (a collection when an edition was being stored, with 50-60 MB
// live, let it grow to twice that), the process's peak; 512 MB keeps it nearer what is live, with
// room for eight times this corpus's live set. Its young generation has 8 MB semi-spaces.
const LIMITS = { maxYoungGenerationSizeMb: 24, maxOldGenerationSizeMb: 512 };

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
