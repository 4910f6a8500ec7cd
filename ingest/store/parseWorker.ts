import { parentPort } from 'node:worker_threads';
import { alignEditions, type AlignRule } from '../../src/engine/align.js';
import { hash53 } from './hash53.js';
import { normalizeText } from '../../src/core/normalize.js';
import { parseTask, type ParseTask } from './parseTask.js';
import type { RuleNode } from '../../src/core/types.js';

/** A message to a parse worker: parse a file, align two parsed documents, hand over or receive a document's rules. */
export type WorkerRequest =
  | { type: 'parse'; id: number; task: ParseTask }
  | { type: 'align'; id: number; before: number; after: number }
  | { type: 'export'; id: number; docId: number }
  | { type: 'adopt'; id: number; docId: number; rules: RuleNode[] }
  | { type: 'release'; indices: number[] };

// Documents this worker parsed (or was given), kept so consecutive editions can be aligned here
// without copying them back and forth; see parsePool.ts.
const docs = new Map<number, RuleNode[]>();
const prepared = new Map<number, AlignRule[]>();
// What is derived from each distinct text, memoized: consecutive editions repeat most texts, and
// the writer's hashes and the alignment both need them.
const derived = new Map<string, { norm: string; pair: readonly [number, number] }>();

function derive(text: string): { norm: string; pair: readonly [number, number] } {
  let d = derived.get(text);
  if (d === undefined) {
    const norm = normalizeText(text);
    d = { norm, pair: [hash53(text), hash53(norm)] };
    // A parsed text is a slice of its whole file, which a key would keep alive for the whole run:
    // the key is a copy (slicing a concatenation makes V8 flatten it into a new string).
    derived.set((' ' + text).slice(1), d);
  }
  return d;
}

function alignRules(rules: RuleNode[]): AlignRule[] {
  return rules.map((r) => ({ number: r.number, text: r.text, norm: derive(r.text).norm, parent: r.parent, kind: r.kind, examples: r.examples }));
}

function rulesOf(id: number): AlignRule[] | null {
  let rules = prepared.get(id);
  if (!rules) {
    const doc = docs.get(id);
    if (!doc) return null;
    prepared.set(id, (rules = alignRules(doc)));
  }
  return rules;
}

parentPort?.on('message', (m: WorkerRequest) => {
  if (m.type === 'parse') {
    // Word documents are read asynchronously; the main thread asks nothing else of a document before its reply.
    void parseTask(m.task, (t) => derive(t).pair).then((result) => {
      if (result.ok) docs.set(m.id, result.doc.rules);
      parentPort!.postMessage({ id: m.id, result });
    });
  } else if (m.type === 'release') {
    for (const i of m.indices) {
      docs.delete(i);
      prepared.delete(i);
    }
  } else if (m.type === 'export') {
    // the document moves to another worker for an alignment: this one lets it go
    const rules = docs.get(m.docId) ?? null;
    docs.delete(m.docId);
    prepared.delete(m.docId);
    parentPort!.postMessage({ id: m.id, result: rules });
  } else if (m.type === 'adopt') {
    docs.set(m.docId, m.rules);
    // a document moved here, or repaired after parsing, replaces any prepared from an earlier copy
    prepared.delete(m.docId);
    parentPort!.postMessage({ id: m.id, result: null });
  } else {
    const before = rulesOf(m.before);
    const after = rulesOf(m.after);
    const result = before && after ? alignEditions(before, after) : null;
    // An edition is aligned with its predecessor and its successor, then no more.
    prepared.delete(m.before);
    parentPort!.postMessage({ id: m.id, result });
  }
});
