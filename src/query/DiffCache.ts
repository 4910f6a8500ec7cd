import { LRUCache } from 'lru-cache';
import type { EditionInfo } from '../core/records.js';
import type { Snapshot } from '../db/Snapshot.js';
import { narrowDiff, type ChangeKind, type EditionDiff } from '../engine/diffEditions.js';
import { loadDiff } from '../engine/loadDiff.js';

/** Options of a diff. */
export interface DiffQuery {
  section?: string;
  kinds?: ChangeKind[];
  /** Word-level segments of changed texts (default true). */
  segments?: boolean;
  /** Rules only: no example or glossary changes. */
  rulesOnly?: boolean;
}

// Bytes a diff holds, roughly: its texts twice (before/after, two bytes a character) and some per change.
function diffBytes(d: EditionDiff): number {
  // texts are shared with the snapshot; what a diff adds is its objects and word segments
  const segs = (s: Array<{ text: string }> | undefined): number => (s ? s.reduce((n, x) => n + 64 + 2 * x.text.length, 0) : 0);
  let n = 1024 + 64 * d.renumbering.length;
  for (const c of d.changes) n += 300 + segs(c.segments);
  const chars = (ts: string[]): number => ts.reduce((k, t) => k + t.length, 0);
  for (const x of d.examples) n += 300 + 2 * (chars(x.before) + chars(x.after));
  for (const g of d.glossary) n += 300 + 2 * ((g.before?.length ?? 0) + (g.after?.length ?? 0)) + segs(g.segments);
  return n;
}

/** Diffs of a snapshot's editions, the latest asked kept up to a size in bytes. */
export class DiffCache {
  private readonly diffs: LRUCache<string, EditionDiff>;

  constructor(
    private readonly snapshot: Snapshot,
    maxBytes: number,
  ) {
    this.diffs = new LRUCache<string, EditionDiff>({ maxSize: maxBytes, sizeCalculation: diffBytes });
  }

  /** Changes between two editions (any two; `from` may be later than `to`). */
  diff(from: EditionInfo, to: EditionInfo, opts: DiffQuery = {}): EditionDiff {
    const { section, kinds, ...whole } = opts;
    // a scoped or filtered diff is narrowed from the whole one (cached), which costs a filter, not a diff
    if (section !== undefined || kinds !== undefined)
      return narrowDiff(this.diff(from, to, whole), { ...(section !== undefined ? { section } : {}), ...(kinds !== undefined ? { kinds } : {}) });
    const key = JSON.stringify([from.id, to.id, whole.segments ?? true, whole.rulesOnly ?? false]);
    const hit = this.diffs.get(key);
    if (hit) return hit;
    const d = loadDiff(this.snapshot, from, to, whole);
    this.diffs.set(key, d);
    return d;
  }

  /** Bytes the cached diffs take, by the estimate the cache is bounded by. */
  get bytes(): number {
    return this.diffs.calculatedSize;
  }
}
