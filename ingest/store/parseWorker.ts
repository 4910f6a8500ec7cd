import { parentPort } from 'node:worker_threads';
import { alignEditions, type AlignRule } from '../../src/engine/align.js';
import { hash53 } from './hash53.js';
import { normalizeText } from '../../src/core/normalize.js';
import { parseTask, replyOf, type ParseTask } from './parseTask.js';
import type { RuleNode } from '../../src/core/types.js';

/** A message to a parse worker: parse a file, align two parsed documents, hand over or receive a document's rules. */
export type WorkerRequest =
  | { type: 'parse'; id: number; task: ParseTask }
  | { type: 'align'; id: number; before: number; after: number }
  | { type: 'export'; id: number; docId: number }
  | { type: 'adopt'; id: number; docId: number; rules: Array<AlignRule | RuleNode> }
  | { type: 'release'; indices: number[] };

// The rules of documents this worker parsed (or was given), ready to align, so consecutive
// editions can be aligned here without copying them back and forth; see parsePool.ts.
const docs = new Map<number, AlignRule[]>();
// What is derived from each distinct text, memoized: consecutive editions repeat most texts, and
// the writer's hashes and the alignment both need them. Kept rules share its copies of the texts.
const derived = new Map<string, { text: string; norm: string; pair: readonly [number, number] }>();

function derive(text: string): { text: string; norm: string; pair: readonly [number, number] } {
  let d = derived.get(text);
  if (d === undefined) {
    const copy = detached(text);
    const norm = normalizeText(copy);
    d = { text: copy, norm, pair: [hash53(copy), hash53(norm)] };
    derived.set(copy, d);
  }
  return d;
}

/**
 * A copy of a string that holds no reference to the one it was cut from: a parsed text is a slice
 * of its whole file, which a kept one would keep alive (slicing a concatenation makes V8 flatten it
 * into a new string).
 */
function detached(s: string): string {
  return (' ' + s).slice(1);
}

function alignRules(rules: Array<AlignRule | RuleNode>): AlignRule[] {
  return rules.map((r) => {
    const d = derive(r.text);
    return {
      number: detached(r.number),
      text: d.text,
      norm: d.norm,
      parent: r.parent === null ? null : detached(r.parent),
      kind: r.kind,
      examples: r.examples.map((e) => derive(e).text),
    };
  });
}

/** Whether a typed array is the whole of its buffer (so the buffer can be transferred). */
function whole(a: Uint8Array | Float64Array): boolean {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength;
}

parentPort?.on('message', (m: WorkerRequest) => {
  if (m.type === 'parse') {
    // Word documents are read asynchronously; the main thread asks nothing else of a document before its reply.
    void parseTask(m.task, (t) => derive(t).pair).then((result) => {
      if (result.ok && result.doc.complete) docs.set(m.id, alignRules(result.doc.rules));
      const reply = replyOf(result);
      // the serialized copy and the entries move to the main thread rather than being copied
      const moved = reply.ok && reply.complete ? [reply.copy, reply.summary.entries].filter(whole).map((a) => a.buffer as ArrayBuffer) : [];
      parentPort!.postMessage({ id: m.id, result: reply }, moved);
    });
  } else if (m.type === 'release') {
    for (const i of m.indices) docs.delete(i);
  } else if (m.type === 'export') {
    // the document moves to another worker for an alignment: this one lets it go
    parentPort!.postMessage({ id: m.id, result: docs.get(m.docId) ?? null });
    docs.delete(m.docId);
  } else if (m.type === 'adopt') {
    // a document moved here, or repaired after parsing: its rules replace any earlier copy's
    docs.set(m.docId, alignRules(m.rules));
    parentPort!.postMessage({ id: m.id, result: null });
  } else {
    const before = docs.get(m.before);
    const after = docs.get(m.after);
    const result = before && after ? alignEditions(before, after) : null;
    parentPort!.postMessage({ id: m.id, result });
  }
});
