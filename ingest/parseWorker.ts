import { parentPort } from 'node:worker_threads';
import { alignEditions, type AlignRule } from '../src/engine/align.js';
import { normalizeText } from './normalize.js';
import { parseTask, type ParseTask } from './parseTask.js';
import type { ParsedDocument, RuleNode } from './types.js';

/** A message to a parse worker: parse a file, align two parsed documents, or receive a document parsed elsewhere. */
export type WorkerRequest =
  | { type: 'parse'; id: number; task: ParseTask }
  | { type: 'align'; id: number; before: number; after: number }
  | { type: 'adopt'; id: number; docId: number; doc: ParsedDocument };

// Documents this worker parsed (or was given), kept so consecutive editions can be aligned here
// without copying them back and forth; see parsePool.ts.
const docs = new Map<number, RuleNode[]>();
const prepared = new Map<number, AlignRule[]>();
const norms = new Map<string, string>();

// Memoized: consecutive editions repeat most texts, and the hashes and the alignment both need them.
function normalize(text: string): string {
  let norm = norms.get(text);
  if (norm === undefined) norms.set(text, (norm = normalizeText(text)));
  return norm;
}

function alignRules(rules: RuleNode[]): AlignRule[] {
  return rules.map((r) => ({ number: r.number, text: r.text, norm: normalize(r.text), parent: r.parent, kind: r.kind, examples: r.examples }));
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
    const result = parseTask(m.task, normalize);
    if (result.ok) docs.set(m.id, result.doc.rules);
    parentPort!.postMessage({ id: m.id, result });
  } else if (m.type === 'adopt') {
    docs.set(m.docId, m.doc.rules);
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
