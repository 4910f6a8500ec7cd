import { LRUCache } from 'lru-cache';
import type { EditionInfo } from '../core/records.js';
import type { Snapshot } from '../db/Snapshot.js';
import { narrowDiff, type ChangeKind, type EditionDiff, type GlossaryChange, type RuleChange } from '../engine/diffEditions.js';
import { loadDiff } from '../engine/loadDiff.js';
import { packSegments, unpackSegments, wordDiff } from '../engine/wordDiff.js';

/** Places of the rule changes and glossary changes given word segments, each [from, up to). */
export interface SegmentRanges {
  changes: readonly [number, number];
  glossary: readonly [number, number];
}

const EVERY: SegmentRanges = { changes: [0, Infinity], glossary: [0, Infinity] };
const within = (k: number, [from, upTo]: readonly [number, number]): boolean => k >= from && k < upTo;

/** Options of a diff. */
export interface DiffQuery {
  section?: string;
  kinds?: ChangeKind[];
  /** Word-level segments of changed texts (default true). */
  segments?: boolean;
  /** Rules only: no example or glossary changes. */
  rulesOnly?: boolean;
  /**
   * Word segments only for the rule changes (after the section and kinds filters) and the glossary
   * changes at these places, each [from, up to): what one page of a diff shows. Default: every change.
   */
  segmentsIn?: SegmentRanges;
}

// Bytes a diff holds, roughly: its texts twice (before/after, two bytes a character) and some per change.
function diffBytes(d: EditionDiff): number {
  // texts are shared with the snapshot; what a diff adds is its objects
  let n = 1024 + 64 * d.renumbering.length + 300 * d.changes.length;
  const chars = (ts: string[]): number => ts.reduce((k, t) => k + t.length, 0);
  for (const x of d.examples) n += 300 + 2 * (chars(x.before) + chars(x.after));
  for (const g of d.glossary) n += 300 + 2 * ((g.before?.length ?? 0) + (g.after?.length ?? 0));
  return n;
}

/** Bytes of packed word diffs kept (WORDS_BYTES): about 8 bytes a segment; the 110 neighbour transitions of the corpus take about 1.5 MB. */
const WORDS_BYTES = 4 * 1024 * 1024;

/** A change's word diff is shown: both texts exist and differ (rules), or both exist (glossary). */
const ruleNeedsWords = (c: RuleChange): boolean => c.before !== null && c.after !== null && c.before.text !== c.after.text;
const glossaryNeedsWords = (g: GlossaryChange): boolean => g.before !== null && g.after !== null;

/** A cached diff (no word segments) and the place of each of its changes, to find their packed word diffs. */
interface Bare {
  diff: EditionDiff;
  /** Rule changes at 0…changes−1, glossary changes after: made on first use. */
  places: Map<RuleChange | GlossaryChange, number> | null;
}

/** The packed word diffs of a pair's changes (packSegments), by change place; -1: not made yet. */
interface Words {
  at: Int32Array;
  packed: number[];
}

/**
 * Diffs of a snapshot's editions without word segments, the latest asked kept up to a size in bytes;
 * and, apart, the word diffs of the latest pairs asked, packed (lengths and ops, up to WORDS_BYTES),
 * made for the changes asked only (a page lists at most a few hundred of a far diff's thousands).
 * A diff with segments is the cached one with its changes copied and given their unpacked word diffs:
 * a web page asks the same pairs again and again, and this makes a neighbour's page a render, not a
 * diff (the alignment and the word diffs are most of a fresh diff page's time).
 */
export class DiffCache {
  private readonly diffs: LRUCache<string, Bare>;
  private readonly words = new LRUCache<string, Words>({ maxSize: WORDS_BYTES, sizeCalculation: (w) => 64 + 4 * w.at.length + 8 * w.packed.length });

  constructor(
    private readonly snapshot: Snapshot,
    maxBytes: number,
  ) {
    this.diffs = new LRUCache<string, Bare>({ maxSize: maxBytes, sizeCalculation: (b) => diffBytes(b.diff) });
  }

  /** Changes between two editions (any two; `from` may be later than `to`). */
  diff(from: EditionInfo, to: EditionInfo, opts: DiffQuery = {}): EditionDiff {
    const { section, kinds, segmentsIn = EVERY, segments = true, rulesOnly = false } = opts;
    const key = `${from.id},${to.id},${rulesOnly ? 1 : 0}`;
    let bare = this.diffs.get(key);
    if (!bare) {
      bare = { diff: loadDiff(this.snapshot, from, to, { segments: false, rulesOnly }), places: null };
      this.diffs.set(key, bare);
    }
    // a scoped or filtered diff is narrowed from the whole one (cached), which costs a filter, not a diff
    const d =
      section !== undefined || kinds !== undefined
        ? narrowDiff(bare.diff, { ...(section !== undefined ? { section } : {}), ...(kinds !== undefined ? { kinds } : {}) })
        : bare.diff;
    return segments ? this.withSegments(d, bare, key, segmentsIn) : d;
  }

  /** `d` (the cached diff or one narrowed from it) with word segments for its changes in `ranges` (copies: the cached diff is left as it is). */
  private withSegments(d: EditionDiff, bare: Bare, key: string, ranges: SegmentRanges): EditionDiff {
    const whole = bare.diff;
    const places = (bare.places ??= new Map<RuleChange | GlossaryChange, number>([
      ...whole.changes.map((c, k): [RuleChange, number] => [c, k]),
      ...whole.glossary.map((g, k): [GlossaryChange, number] => [g, whole.changes.length + k]),
    ]));
    let w = this.words.get(key);
    const fresh = w === undefined;
    if (!w) w = { at: new Int32Array(whole.changes.length + whole.glossary.length).fill(-1), packed: [] };
    let added = false;
    const segmentsOf = (x: RuleChange | GlossaryChange, before: string, after: string) => {
      const p = places.get(x)!;
      if (w.at[p]! < 0) {
        w.at[p] = w.packed.length;
        packSegments(wordDiff(before, after), w.packed);
        added = true;
      }
      return unpackSegments(before, after, w.packed, w.at[p]!)[0];
    };
    const out: EditionDiff = {
      ...d,
      changes: d.changes.map((c, k) => (within(k, ranges.changes) && ruleNeedsWords(c) ? { ...c, segments: segmentsOf(c, c.before!.text, c.after!.text) } : c)),
      glossary: d.glossary.map((g, k) => (within(k, ranges.glossary) && glossaryNeedsWords(g) ? { ...g, segments: segmentsOf(g, g.before!, g.after!) } : g)),
    };
    // (set again when it grew: the cache's size of it is re-read)
    if (fresh || added) this.words.set(key, w);
    return out;
  }

  /**
   * Makes the diffs of `pairs` (in that order, one between other work each) with word segments for their
   * changes in `segmentsIn`, as a diff page asks for them; stops when `stop()` says so or once the
   * cache is three quarters full, so that the diffs asked for later are kept too.
   */
  inBackground(pairs: ReadonlyArray<readonly [EditionInfo, EditionInfo]>, segmentsIn: SegmentRanges, stop: () => boolean): Promise<void> {
    const todo = [...pairs];
    return new Promise((resolve) => {
      const step = (): void => {
        if (stop() || todo.length === 0 || this.diffs.calculatedSize > 0.75 * this.diffs.maxSize) return resolve();
        const [from, to] = todo.shift()!;
        this.diff(from, to, { segmentsIn });
        setImmediate(step);
      };
      setImmediate(step);
    });
  }

  /** Bytes the cached diffs take, by the estimate the cache is bounded by. */
  get bytes(): number {
    return this.diffs.calculatedSize;
  }
}
