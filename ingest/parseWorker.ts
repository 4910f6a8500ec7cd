import { parentPort } from 'node:worker_threads';
import { parseTask, type ParseTask } from './parseTask.js';

// Parses inputs off the main thread; see parsePool.ts.
parentPort?.on('message', (task: ParseTask & { id: number }) => {
  parentPort!.postMessage({ id: task.id, result: parseTask(task) });
});
