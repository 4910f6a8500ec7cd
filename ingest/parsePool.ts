import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { parseTask, type ParseOutcome, type ParseTask } from './parseTask.js';

/**
 * Parses tasks on worker threads (one per core, at most `max`), in input
 * order. Small batches are parsed inline: starting workers costs more.
 */
export async function parseAll(tasks: ParseTask[], onDone?: (n: number) => void, max = availableParallelism()): Promise<ParseOutcome[]> {
  const workers = Math.min(max, Math.ceil(tasks.length / 4));
  const results: ParseOutcome[] = new Array<ParseOutcome>(tasks.length);
  let finished = 0;
  if (workers <= 1) {
    tasks.forEach((t, i) => {
      results[i] = parseTask(t);
      onDone?.(++finished);
    });
    return results;
  }
  let next = 0;
  const pool = Array.from({ length: workers }, () => new Worker(new URL('./parseWorker.js', import.meta.url)));
  try {
    await Promise.all(
      pool.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const feed = (): void => {
              if (next >= tasks.length) {
                resolve();
                return;
              }
              const id = next++;
              w.postMessage({ ...tasks[id]!, id });
            };
            w.on('message', (m: { id: number; result: ParseOutcome }) => {
              results[m.id] = m.result;
              onDone?.(++finished);
              feed();
            });
            w.on('error', reject);
            feed();
          }),
      ),
    );
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  return results;
}
