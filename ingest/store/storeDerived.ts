import type { Writer } from './Writer.js';
import { Lineage } from '../../src/db/Lineage.js';
import { alignEditions } from '../../src/engine/align.js';
import type { AlignRule, Alignment } from '../../src/engine/align.js';
import { extractReferences } from '../../src/core/references.js';
import { normalizeText } from '../../src/core/normalize.js';
import type { DocumentFamily } from '../../src/core/types.js';

/** What storeDerived did, for reports and benchmarks. */
export interface DerivedReport {
  /** Texts whose references were extracted. */
  texts: number;
  /** Edition pairs aligned afresh (the others kept their stored lineage). */
  aligned: number;
  /** Editions whose lineage ids were (re)written. */
  editionsUpdated: number;
  /** Rule rows whose lineage id changed. */
  rowsUpdated: number;
}

/**
 * Derives what ingest stores beside the texts: cross-references of every new text, and
 * lineage ids along each family's chain of official editions. `precomputed` holds
 * alignments of consecutive editions made from the parsed documents, keyed "family|before|after".
 */
export function storeDerived(writer: Writer, precomputed: ReadonlyMap<string, Alignment> = new Map()): DerivedReport {
  storeReferences(writer);
  const report: DerivedReport = { texts: writer.insertedTexts, aligned: 0, editionsUpdated: 0, rowsUpdated: 0 };
  const lineage = new Lineage(writer.db);
  const norms = new Map<number, string>();
  for (const family of ['cr', 'rulings'] as DocumentFamily[]) storeLineage(lineage, family, norms, report, precomputed);
  return report;
}

/** Extracts and stores the cross-references of the texts the writer inserted since the last call. */
export function storeReferences(writer: Writer): void {
  for (const { id, body } of writer.takeNewTexts()) writer.storeTextRefs(id, extractReferences(body));
}

/**
 * Recomputes lineage ids along one family's chain. An edition whose rows and predecessor are
 * unchanged keeps the alignment its stored ids imply (same id = continues); only pairs touching
 * a new, replaced or newly neighbouring edition are aligned afresh. Unpaired rules keep their
 * old id where that joins no other lineage, so ids stay stable across re-ingests.
 */
function storeLineage(
  lineage: Lineage,
  family: DocumentFamily,
  norms: Map<number, string>,
  report: DerivedReport,
  precomputed: ReadonlyMap<string, Alignment> = new Map(),
): void {
  const chain = lineage.chain(family);
  if (chain.length === 0) return;
  const states = lineage.states();
  const oldIds = chain.map((e) => lineage.lineageIds(e.id));
  // content unchanged since ids were computed: every row has an id
  const intact = oldIds.map((ids, k) => ids.every((x) => x !== null) && (ids.length > 0 || states.has(chain[k]!.id)));
  const sameNeighbour = chain.map((e, k) => states.has(e.id) && states.get(e.id) === (k > 0 ? chain[k - 1]!.id : null));
  if (chain.every((_, k) => intact[k] && sameNeighbour[k])) return;

  let next = lineage.nextId();
  // one AlignRule per rule version, shared by every edition holding it
  let versions: ReturnType<Lineage['allVersions']> | null = null;
  let texts: Map<number, string> | null = null;
  const alignRules = new Map<number, AlignRule>();
  const alignRuleOf = (versionId: number): AlignRule => {
    let r = alignRules.get(versionId);
    if (r) return r;
    versions ??= lineage.allVersions();
    texts ??= lineage.allTexts();
    const v = versions.get(versionId)!;
    const text = texts.get(v.textId) ?? '';
    let norm = norms.get(v.textId);
    if (norm === undefined) norms.set(v.textId, (norm = normalizeText(text)));
    r = { number: v.number, text, norm, parent: v.parent, kind: v.kind, examples: v.exampleIds.map((id) => texts!.get(id) ?? '') };
    alignRules.set(versionId, r);
    return r;
  };
  const cache = new Map<number, AlignRule[]>();
  const load = (k: number): AlignRule[] => {
    const id = chain[k]!.id;
    let l = cache.get(id);
    if (!l) cache.set(id, (l = lineage.versionIds(id).map(alignRuleOf)));
    return l;
  };
  const fresh = new Map<number, Alignment>();
  const alignPair = (k: number): Alignment => {
    let al = fresh.get(k);
    // Aligned already (on the parse workers) from the very documents just stored: same rules, same order.
    const pre = precomputed.get(`${family}|${chain[k - 1]!.effectiveDate}|${chain[k]!.effectiveDate}`);
    if (!al && pre && pre.afterToBefore.length === oldIds[k]!.length && pre.beforeToAfter.length === oldIds[k - 1]!.length) {
      al = pre;
      fresh.set(k, al);
      report.aligned++;
    }
    if (!al) {
      al = alignEditions(load(k - 1), load(k));
      fresh.set(k, al);
      report.aligned++;
    }
    return al;
  };
  // pair (k-1, k) keeps its stored alignment when both sides are intact and were computed together
  const keeps = (k: number): boolean => k > 0 && intact[k - 1]! && intact[k]! && sameNeighbour[k]!;

  let prevNew: Int32Array | null = null;
  for (let k = 0; k < chain.length; k++) {
    const ed = chain[k]!;
    const old = oldIds[k]!;
    const n = old.length;
    const cur = new Int32Array(n);
    const used = new Set<number>();
    const prevUsed = new Set<number>(prevNew ?? []);
    let a2b: Int32Array | null = null;
    if (k > 0 && keeps(k)) {
      // implied alignment: same old id on both sides
      const prevOld = oldIds[k - 1]!;
      const byId = new Map<number, number>();
      prevOld.forEach((x, j) => byId.set(x!, j));
      a2b = new Int32Array(n);
      for (let i = 0; i < n; i++) a2b[i] = byId.get(old[i]!) ?? -1;
    } else if (k > 0) {
      const al = alignPair(k);
      a2b = al.afterToBefore;
      // ord runs 0..n-1 in document order, as the writer stores it
      lineage.replaceLinks(ed.id, chain[k - 1]!.id, [
        ...al.splits.flatMap((s) => s.after.slice(1).map((i) => ({ kind: 'split' as const, ord: i, prevOrd: s.before }))),
        ...al.merges.flatMap((m) => m.before.slice(1).map((j) => ({ kind: 'merge' as const, ord: m.after, prevOrd: j }))),
      ]);
      const reasons: Array<[number, string, number]> = [];
      al.method.forEach((m, i) => {
        if (m !== 'exact' && m !== 'none') reasons.push([i, m, Math.round((al.score[i] ?? 0) * 1000) / 1000]);
      });
      lineage.replacePairs(ed.id, reasons);
    }
    // a new or replaced edition may inherit ids from an intact successor it aligns with
    let inherit: Int32Array | null = null;
    if (!intact[k] && k + 1 < chain.length && intact[k + 1]) {
      const al = alignPair(k + 1);
      const nextOld = oldIds[k + 1]!;
      inherit = new Int32Array(n).fill(-1);
      for (let i = 0; i < n; i++) {
        const m = al.beforeToAfter[i]!;
        if (m !== -1) inherit[i] = nextOld[m]!;
      }
    }
    for (let i = 0; i < n; i++) {
      const j = a2b ? a2b[i]! : -1;
      let id = -1;
      if (j !== -1 && prevNew) id = prevNew[j]!;
      else {
        const own = old[i];
        const candidates = [own ?? -1, inherit ? inherit[i]! : -1];
        for (const c of candidates) {
          if (c > 0 && !prevUsed.has(c) && !used.has(c)) {
            id = c;
            break;
          }
        }
        if (id === -1) id = next++;
      }
      cur[i] = id;
      used.add(id);
    }
    let changed = 0;
    for (let i = 0; i < n; i++) if (old[i] !== cur[i]) changed++;
    if (changed > 0) lineage.setLineages(ed.id, cur, old);
    if (changed > 0) report.editionsUpdated++;
    report.rowsUpdated += changed;
    if (!sameNeighbour[k]) lineage.setState(ed.id, k > 0 ? chain[k - 1]!.id : null);
    prevNew = cur;
    if (cache.size > 3) for (const key of [...cache.keys()].slice(0, cache.size - 3)) cache.delete(key);
  }
  lineage.setNextId(next);
}
