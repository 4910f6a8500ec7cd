import { parentPort } from 'node:worker_threads';
import { hash53 } from './hash53.js';
import { normalizeText } from '../../src/core/normalize.js';
import { CopyGate } from './CopyGate.js';
import { parseTask, replyOf, type ParseTask } from './parseTask.js';
import { isWholeBuffer } from './releaseBuffer.js';

/** A message to a parse worker: parse a file. */
export interface WorkerRequest {
  id: number;
  task: ParseTask;
}

// Each distinct text's normalized hash by its own (hash53 tells texts apart, as the writer's texts
// do), memoized: consecutive editions repeat most texts. Keyed by number, a hit hashes the text once
// and keeps no string (a string key was hashed and compared again, and had to be a copy).
const normHashes = new Map<number, number>();

function pairOf(text: string): readonly [number, number] {
  const h = hash53(text);
  let normH = normHashes.get(h);
  if (normH === undefined) {
    normH = hash53(normalizeText(text));
    normHashes.set(h, normH);
  }
  return [h, normH];
}

// the best copy this worker sent of each edition: copies it outranks are not serialized
const gate = new CopyGate();

parentPort?.on('message', (m: WorkerRequest) => {
  // Word documents are read asynchronously; the pool sends the next input before this one's reply.
  void parseTask(m.task, pairOf).then((result) => {
    const reply = replyOf(result, m.task, gate);
    // the serialized document and the entries move to the main thread rather than being copied
    const moved =
      reply.ok && reply.complete ? [reply.copy, reply.summary.entries].filter((a) => a !== null && isWholeBuffer(a)).map((a) => a!.buffer as ArrayBuffer) : [];
    parentPort!.postMessage({ id: m.id, result: reply }, moved);
  });
});
