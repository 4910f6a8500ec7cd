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

// The hashes of each distinct text, memoized: consecutive editions repeat most texts.
const hashes = new Map<string, readonly [number, number]>();

function pairOf(text: string): readonly [number, number] {
  let pair = hashes.get(text);
  if (pair === undefined) {
    pair = [hash53(text), hash53(normalizeText(text))];
    // A parsed text is a slice of its whole file, which a key would keep alive for the whole run:
    // the key is a copy (slicing a concatenation makes V8 flatten it into a new string).
    hashes.set((' ' + text).slice(1), pair);
  }
  return pair;
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
