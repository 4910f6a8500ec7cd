import { Lineage } from '../db/Lineage.js';
import type { Db } from '../db/openDb.js';
import type { DocumentFamily } from '../core/types.js';
import type { RuleChange } from './diffEditions.js';

/** Why a diff paired a rule: the aligner's method and score, or how far apart the editions are. */
export interface PairReason {
  /** An AlignMethod ('exact', 'similar', 'children', …), or 'lineage' for editions not adjacent. */
  method: string;
  score: number | null;
  /** Editions between `from` and `to` along the chain, when not adjacent. */
  steps?: number;
}

/**
 * Explains the pairs of a diff: for adjacent editions (either direction) the reason stored at
 * ingest for each continuing rule; for editions further apart, the number of alignment steps the
 * lineage spans. Returns a function of a change (null for added and removed rules).
 */
export function explainPairs(db: Db, from: { id: number }, to: { id: number }, family: DocumentFamily = 'cr'): (c: RuleChange) => PairReason | null {
  const lineage = new Lineage(db);
  const chain = lineage.chain(family);
  const kf = chain.findIndex((e) => e.id === from.id);
  const kt = chain.findIndex((e) => e.id === to.id);
  const steps = kf >= 0 && kt >= 0 ? Math.abs(kt - kf) : null;
  if (steps !== 1) {
    return (c) => (c.before && c.after ? { method: 'lineage', score: null, ...(steps !== null ? { steps } : {}) } : null);
  }
  // reasons are stored on the later edition, by its rule numbers
  const later = kt > kf ? to.id : from.id;
  const reasons = lineage.pairReasons(later);
  return (c) => {
    if (!c.before || !c.after) return null;
    const n = kt > kf ? c.after.number : c.before.number;
    return reasons.get(n) ?? { method: 'exact', score: 1 };
  };
}
