import { alignEditions, TokenCache, type Alignment } from '../../src/engine/align.js';
import type { AlignablePair, EditionGroups } from './EditionGroups.js';

/**
 * The alignments of consecutive editions that an ingest works out as it stores them, while both
 * editions' rules are at hand: an edition aligned with its predecessor and its successor is let go
 * (its rules are not needed again), so the run never holds every edition's rules. A pair aligned
 * after one of its editions was let go has a null result (the lineage step aligns it from the database).
 */
export class ChainAlignments {
  private readonly results = new Map<string, { before: number; after: number; result: Alignment | null }>();
  // stored documents (by input index) aligned with their successor, with their predecessor, let go
  private readonly withNext = new Set<number>();
  private readonly withPrevious = new Set<number>();
  private readonly released = new Set<number>();
  // consecutive pairs share most texts: their words are read once
  private readonly tokens = new TokenCache();

  constructor(
    private readonly groups: EditionGroups,
    /** The official editions stored before this run ("family|date"): the chain runs through them too. */
    private readonly existing: Set<string>,
  ) {}

  /** Aligns the consecutive editions that are final and lets go of each edition aligned on both sides. */
  alignReady(): void {
    for (const p of this.groups.alignablePairs(this.existing)) this.align(p);
    for (const i of this.withNext) {
      if (!this.withPrevious.has(i) || this.released.has(i)) continue;
      this.groups.letGo(i);
      this.released.add(i);
    }
    this.groups.compactRules();
  }

  /** The alignments of the final chain whose documents are the ones stored, by pair key (see AlignablePair). */
  final(): Map<string, Alignment> {
    const out = new Map<string, Alignment>();
    for (const p of this.groups.alignablePairs(this.existing)) {
      this.align(p);
      const al = this.results.get(p.key)!.result;
      if (al) out.set(p.key, al);
    }
    return out;
  }

  private align(p: AlignablePair): void {
    const prev = this.results.get(p.key);
    if (prev && prev.before === p.before && prev.after === p.after) return;
    const rules = p.rules();
    this.results.set(p.key, { before: p.before, after: p.after, result: rules ? alignEditions(...rules, { tokens: this.tokens }) : null });
    this.tokens.rotate();
    this.withNext.add(p.before);
    this.withPrevious.add(p.after);
  }
}
