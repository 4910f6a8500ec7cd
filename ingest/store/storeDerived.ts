import type { Writer } from './Writer.js';
import { Lineage, type AlignRow } from '../../src/db/Lineage.js';
import { alignEditions } from '../../src/engine/align.js';
import type { AlignRule, Alignment } from '../../src/engine/align.js';
import { extractReferences } from '../../src/core/references.js';
import { normalizeText } from '../../src/core/normalize.js';
import type { DocumentFamily } from '../../src/core/types.js';
import { FAMILIES } from '../../src/core/families.js';
import { isPolicyFamily } from '../../src/core/policyUnit.js';
import { extractPolicyReferences } from '../../src/core/policyReferences.js';

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
  for (const family of FAMILIES) storeLineage(lineage, family, norms, report, precomputed);
  return report;
}

/** Extracts and stores the cross-references of the texts the writer inserted since the last call. */
export function storeReferences(writer: Writer): void {
  for (const { id, body, family } of writer.takeNewTexts()) {
    writer.storeTextRefs(id, isPolicyFamily(family) ? extractPolicyReferences(body, family) : extractReferences(body));
  }
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

  const pairs = new ChainPairs(lineage, chain, norms, report, (k) => {
    // aligned already (on the parse workers) from the very documents just stored: same rules, same order
    const pre = precomputed.get(`${family}|${chain[k - 1]!.effectiveDate}|${chain[k]!.effectiveDate}`);
    return pre && pre.afterToBefore.length === oldIds[k]!.length && pre.beforeToAfter.length === oldIds[k - 1]!.length ? pre : undefined;
  });
  const ids = { next: lineage.nextId() };
  let prevNew: Int32Array | null = null;
  for (let k = 0; k < chain.length; k++) {
    const ed = chain[k]!;
    const old = oldIds[k]!;
    let a2b: Int32Array | null = null;
    // pair (k-1, k) keeps its stored alignment when both sides are intact and were computed together
    if (k > 0 && intact[k - 1]! && intact[k]! && sameNeighbour[k]!) a2b = impliedAlignment(oldIds[k - 1]!, old);
    else if (k > 0) a2b = storeAlignment(lineage, ed.id, chain[k - 1]!.id, pairs.alignment(k));
    // a new or replaced edition may inherit ids from an intact successor it aligns with
    const inherit = !intact[k] && k + 1 < chain.length && intact[k + 1] ? inheritedIds(pairs.alignment(k + 1), oldIds[k + 1]!, old.length) : null;
    const cur = assignIds(old, a2b, prevNew, inherit, ids);
    let changed = 0;
    for (let i = 0; i < old.length; i++) if (old[i] !== cur[i]) changed++;
    if (changed > 0) lineage.setLineages(ed.id, cur, old);
    if (changed > 0) report.editionsUpdated++;
    report.rowsUpdated += changed;
    if (!sameNeighbour[k]) lineage.setState(ed.id, k > 0 ? chain[k - 1]!.id : null);
    prevNew = cur;
    pairs.trim();
  }
  lineage.setNextId(ids.next);
}

/** The alignments of a chain's consecutive editions (k-1, k) worked out afresh, each once, reading their rules as needed. */
class ChainPairs {
  // one AlignRule per rule version, shared by every edition holding it
  private readonly alignRules = new Map<number, AlignRule>();
  // the rules of the editions read last, by edition id
  private readonly cache = new Map<number, AlignRule[]>();
  private readonly fresh = new Map<number, Alignment>();

  constructor(
    private readonly lineage: Lineage,
    private readonly chain: Array<{ id: number }>,
    private readonly norms: Map<number, string>,
    private readonly report: DerivedReport,
    private readonly precomputed: (k: number) => Alignment | undefined,
  ) {}

  /** The alignment of editions k-1 and k: the one precomputed, else aligned now. */
  alignment(k: number): Alignment {
    let al = this.fresh.get(k);
    if (al) return al;
    al = this.precomputed(k) ?? alignEditions(this.rules(k - 1), this.rules(k));
    this.fresh.set(k, al);
    this.report.aligned++;
    return al;
  }

  /** Keeps the rules of the three editions read last. */
  trim(): void {
    const { cache } = this;
    if (cache.size > 3) for (const key of [...cache.keys()].slice(0, cache.size - 3)) cache.delete(key);
  }

  // an edition's rules read from the database: only the editions aligned here, not every text stored
  private rules(k: number): AlignRule[] {
    const id = this.chain[k]!.id;
    let l = this.cache.get(id);
    if (!l) this.cache.set(id, (l = this.lineage.alignRows(id).map((row) => this.alignRuleOf(row))));
    return l;
  }

  private alignRuleOf(row: AlignRow): AlignRule {
    let r = this.alignRules.get(row.versionId);
    if (r) return r;
    const { text, textId } = row;
    let norm = this.norms.get(textId);
    if (norm === undefined) this.norms.set(textId, (norm = normalizeText(text)));
    const exampleIds = row.examples === '[]' ? [] : (JSON.parse(row.examples) as number[]);
    const texts = exampleIds.length > 0 ? this.lineage.textsById(exampleIds) : null;
    r = { number: row.number, text, norm, parent: row.parent, kind: row.kind, examples: exampleIds.map((x) => texts?.get(x) ?? '') };
    this.alignRules.set(row.versionId, r);
    return r;
  }
}

/** The alignment stored ids imply: a rule continues the rule of the previous edition with the same id. */
function impliedAlignment(prevOld: Array<number | null>, old: Array<number | null>): Int32Array {
  const byId = new Map<number, number>();
  prevOld.forEach((x, j) => byId.set(x!, j));
  const a2b = new Int32Array(old.length);
  for (let i = 0; i < old.length; i++) a2b[i] = byId.get(old[i]!) ?? -1;
  return a2b;
}

/** Stores what a fresh alignment of an edition with its predecessor found (splits, merges, why each pair was made); returns its after-to-before map. */
function storeAlignment(lineage: Lineage, editionId: number, prevId: number, al: Alignment): Int32Array {
  // ord runs 0..n-1 in document order, as the writer stores it
  lineage.replaceLinks(editionId, prevId, [
    ...al.splits.flatMap((s) => s.after.slice(1).map((i) => ({ kind: 'split' as const, ord: i, prevOrd: s.before }))),
    ...al.merges.flatMap((m) => m.before.slice(1).map((j) => ({ kind: 'merge' as const, ord: m.after, prevOrd: j }))),
  ]);
  const reasons: Array<[number, string, number]> = [];
  al.method.forEach((m, i) => {
    if (m !== 'exact' && m !== 'none') reasons.push([i, m, Math.round((al.score[i] ?? 0) * 1000) / 1000]);
  });
  lineage.replacePairs(editionId, reasons);
  return al.afterToBefore;
}

/** The ids of an intact successor's rules that each rule of an edition continues into (-1 for none). */
function inheritedIds(al: Alignment, nextOld: Array<number | null>, n: number): Int32Array {
  const inherit = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const m = al.beforeToAfter[i]!;
    if (m !== -1) inherit[i] = nextOld[m]!;
  }
  return inherit;
}

/**
 * The lineage ids of an edition's rules: a paired rule takes its predecessor's new id; an unpaired one its
 * old id, else the id it would inherit, when that joins no other lineage, else a new id (from `ids.next`).
 */
function assignIds(
  old: Array<number | null>,
  a2b: Int32Array | null,
  prevNew: Int32Array | null,
  inherit: Int32Array | null,
  ids: { next: number },
): Int32Array {
  const n = old.length;
  const cur = new Int32Array(n);
  const used = new Set<number>();
  const prevUsed = new Set<number>(prevNew ?? []);
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
      if (id === -1) id = ids.next++;
    }
    cur[i] = id;
    used.add(id);
  }
  return cur;
}
