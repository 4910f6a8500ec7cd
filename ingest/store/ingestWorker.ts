import { parentPort, workerData } from 'node:worker_threads';
import { IngestError } from '../parse/IngestError.js';
import { runIngest, type IngestOptions, type IngestReport } from './runIngest.js';

/** runIngest's options that can be sent to another thread (its progress and lock-wait callbacks come back as messages). */
export type WorkerIngestOptions = Omit<IngestOptions, 'afterStore' | 'expectedDate'>;

/** What the ingest worker tells the thread that started it. */
export type IngestWorkerMessage =
  | { type: 'progress'; done: number; total: number; current: string }
  | { type: 'lockWait'; waitMs: number }
  | { type: 'done'; report: IngestReport }
  | { type: 'failed'; message: string; source?: string; reason?: string };

const post = (m: IngestWorkerMessage): void => parentPort!.postMessage(m);
const opts = workerData as WorkerIngestOptions;

runIngest({
  ...opts,
  onProgress: (done, total, current) => post({ type: 'progress', done, total, current }),
  onLockWait: (waitMs) => post({ type: 'lockWait', waitMs }),
}).then(
  (report) => post({ type: 'done', report }),
  (e: unknown) =>
    post(
      e instanceof IngestError
        ? { type: 'failed', message: e.message, source: e.source, reason: e.reason }
        : { type: 'failed', message: e instanceof Error ? e.message : String(e) },
    ),
);
