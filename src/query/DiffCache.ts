import { LRUCache } from 'lru-cache';
import type { EditionInfo } from '../core/records.js';
import type { Snapshot } from '../db/Snapshot.js';
import { narrowDiff, type ChangeKind, type EditionDiff } from '../engine/diffEditions.js';
import { loadDiff } from '../engine/loadDiff.js';
import { packSegments, unpackSegments, wordDiff } from '../engine/wordDiff.js';

/** Options of a diff. */
export interface DiffQuery {
  section?: string;
  kinds?: ChangeKind[];
  /** Word-level segments of changed texts (default true). */
  segments?: boolean;
  /** Rules only: no example or glossary changes. */
  rulesOnly?: boolean;
  /**
   * Word segments for the first this many rule changes only (after the section and kinds filters) and
   * every glossary change: what a page that lists no more shows. A diff of no more changes is the whole one.
   */
  segmentsUpTo?: number;
}

// Bytes a diff holds, roughly: its texts twice (before/after, two bytes a character) and some per change.
function diffBytes(d: EditionDiff): number {
  // texts are shared with the snapshot; what a diff adds is its objects and word segments
  // a segment's text is a slice of the change's texts (V8 copies slices under 13 characters)
  const segs = (s: Array<{ text: string }> | undefined): number => (s ? s.reduce((n, x) => n + 64 + Math.min(2 * x.text.length, 32), 0) : 0);
  let n = 1024 + 64 * d.renumbering.length;
  for (const c of d.changes) n += 300 + segs(c.segments);
  const chars = (ts: string[]): number => ts.reduce((k, t) => k + t.length, 0);
  for (const x of d.examples) n += 300 + 2 * (chars(x.before) + chars(x.after));
  for (const g of d.glossary) n += 300 + 2 * ((g.before?.length ?? 0) + (g.after?.length ?? 0)) + segs(g.segments);
  return n;
}

/** Bytes of packed word diffs kept (WORDS_BYTES): about 4 bytes a segment; the 110 neighbour transitions of the corpus take about 0.45 MB. */
const WORDS_BYTES = 2 * 1024 * 1024;

/** A diff made without word segments given those addSegments would give, for its first `upTo` rule changes and every glossary change (copies: the cached diff is left as it is). */
function withSegments(d: EditionDiff, upTo: number): EditionDiff {
  return {
    ...d,
    changes: d.changes.map((c, k) =>
      k < upTo && c.before && c.after && c.before.text !== c.after.text ? { ...c, segments: wordDiff(c.before.text, c.after.text) } : c,
    ),
    glossary: d.glossary.map((g) => (g.before !== null && g.after !== null ? { ...g, segments: wordDiff(g.before, g.after) } : g)),
  };
}

/**
 * Diffs of a snapshot's editions, the latest asked kept up to a size in bytes; and, apart, the word
 * diffs of the latest transitions asked, packed (lengths and ops, about 4 bytes a segment, up to
 * WORDS_BYTES): word diffs are three quarters of a neighbour diff's time, the rest of it a quarter.
 * A diff that left the first cache is made again without word diffs, and given its packed ones.
 */
export class DiffCache {
  private readonly diffs: LRUCache<string, EditionDiff>;
  private readonly words = new LRUCache<string, Int32Array>({ maxSize: WORDS_BYTES, sizeCalculation: (p) => Math.max(1, p.byteLength) });

  constructor(
    private readonly snapshot: Snapshot,
    maxBytes: number,
  ) {
    this.diffs = new LRUCache<string, EditionDiff>({ maxSize: maxBytes, sizeCalculation: diffBytes });
  }

  /** Changes between two editions (any two; `from` may be later than `to`). */
  diff(from: EditionInfo, to: EditionInfo, opts: DiffQuery = {}): EditionDiff {
    const { segmentsUpTo, ...all } = opts;
    if (segmentsUpTo !== undefined && (all.segments ?? true)) {
      // a large diff (the Magic 2010 release: about 2,000 changes) gets word diffs for what is listed, not for every change
      const bare = this.diff(from, to, { ...all, segments: false });
      return bare.changes.length > segmentsUpTo ? withSegments(bare, segmentsUpTo) : this.diff(from, to, all);
    }
    const { section, kinds, ...whole } = all;
    // a scoped or filtered diff is narrowed from the whole one (cached), which costs a filter, not a diff
    if (section !== undefined || kinds !== undefined)
      return narrowDiff(this.diff(from, to, whole), { ...(section !== undefined ? { section } : {}), ...(kinds !== undefined ? { kinds } : {}) });
    const key = JSON.stringify([from.id, to.id, whole.segments ?? true, whole.rulesOnly ?? false]);
    const hit = this.diffs.get(key);
    if (hit) return hit;
    const d = loadDiff(this.snapshot, from, to, { ...whole, segments: false });
    if (whole.segments ?? true) this.addSegments(d, key);
    this.diffs.set(key, d);
    return d;
  }

  /** Gives a diff made without word segments the ones diffEditions makes (the same keys, in the same order: last). */
  private addSegments(d: EditionDiff, key: string): void {
    const packed = this.words.get(key);
    const rules = d.changes.filter((c) => c.before && c.after && c.before.text !== c.after.text);
    const glossary = d.glossary.filter((g) => g.before !== null && g.after !== null);
    if (packed) {
      let at = 0;
      for (const c of rules) [c.segments, at] = unpackSegments(c.before!.text, c.after!.text, packed, at);
      for (const g of glossary) [g.segments, at] = unpackSegments(g.before!, g.after!, packed, at);
      return;
    }
    const out: number[] = [];
    for (const c of rules) packSegments((c.segments = wordDiff(c.before!.text, c.after!.text)), out);
    for (const g of glossary) packSegments((g.segments = wordDiff(g.before!, g.after!)), out);
    this.words.set(key, Int32Array.from(out));
  }

  /** Bytes the cached diffs take, by the estimate the cache is bounded by. */
  get bytes(): number {
    return this.diffs.calculatedSize;
  }
}
