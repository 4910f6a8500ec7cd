import type { DiffSegment } from '../engine/wordDiff.js';
import { wordDiff } from '../engine/wordDiff.js';
import type { RuleChange } from '../engine/diffEditions.js';

export type { DiffSegment } from '../engine/wordDiff.js';
/** A change's class: none, typography, references, correction or substantive. */
export { textClass } from '../engine/compareRule.js';

/** Word segments of a change (computed when the diff was made without them): [] for added, removed or unchanged texts. */
export function changeSegments(c: Pick<RuleChange, 'before' | 'after' | 'segments'>): DiffSegment[] {
  return c.segments ?? (c.before && c.after && c.before.text !== c.after.text ? wordDiff(c.before.text, c.after.text) : []);
}
