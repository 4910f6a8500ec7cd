import { findSplitsMerges } from './align/splitsMerges.js';
import { AlignState, type AlignMethod } from './align/AlignState.js';
import { exactPasses } from './align/exactPasses.js';
import { headingsPass } from './align/headingsPass.js';
import { similarityPasses } from './align/similarityPasses.js';
import type { AlignRule, TokenCache } from './align/Side.js';

export type { AlignRule } from './align/Side.js';
export { TokenCache } from './align/Side.js';

/** Lineage alignment of two consecutive editions. */
export interface Alignment {
  /** For each `after` index, the `before` index it continues, or -1 for a new rule. */
  afterToBefore: Int32Array;
  /** For each `before` index, the `after` index continuing it, or -1 for a removed rule. */
  beforeToAfter: Int32Array;
  method: AlignMethod[];
  /** For each `after` index, the score the pair was chosen with (1 for exact keys, 0 for new rules). */
  score: Float32Array;
  /** One old rule whose text went into several new ones; `after[0]` is the continuation. */
  splits: Array<{ before: number; after: number[] }>;
  /** Several old rules folded into one new one; `before[0]` is the continuation. */
  merges: Array<{ before: number[]; after: number }>;
}

export interface AlignOptions {
  /** Minimum cosine for a pair with no supporting context (default 0.55). */
  minSimilarity?: number;
  /** Minimum cosine when the parents are aligned or the neighbours pin the pair (default 0.3). */
  minContextSimilarity?: number;
  /** Words of texts read by earlier alignments of the same chain (rules with text hashes only). */
  tokens?: TokenCache;
}

/**
 * Aligns two consecutive editions: which `after` rule continues which `before` rule. The passes, each in
 * its module under align/, run in order on one AlignState: exact keys (exactPasses), then, while rules are
 * left unpaired, similarity of distinctive words in context (similarityPasses), headings by their
 * children (headingsPass), and splits and merges (splitsMerges).
 */
export function alignEditions(before: AlignRule[], after: AlignRule[], opts: AlignOptions = {}): Alignment {
  const st = new AlignState(before, after, opts.minSimilarity ?? 0.55, opts.minContextSimilarity ?? 0.3);
  if (opts.tokens) st.A.cache = st.B.cache = opts.tokens;
  exactPasses(st);
  const unpaired = st.a2b.includes(-1) || st.b2a.includes(-1);
  if (unpaired) {
    similarityPasses(st);
    headingsPass(st);
  }
  const { splits, merges } = unpaired ? findSplitsMerges(st) : { splits: [], merges: [] };
  return { afterToBefore: st.a2b, beforeToAfter: st.b2a, method: st.method, score: st.score, splits, merges };
}
