import type { RuleChange } from '../engine/diffEditions.js';

/** How many rules a diff added, removed, renumbered, changed only in references, reworded. */
export interface DiffCounts {
  added: number;
  removed: number;
  renumbered: number;
  references: number;
  substantive: number;
}

/** Counts a diff's rule changes by kind (a renumbered rule may be reworded too: it counts in both). */
export function diffCounts(changes: readonly RuleChange[]): DiffCounts {
  const counts = { added: 0, removed: 0, renumbered: 0, references: 0, substantive: 0 };
  for (const c of changes) {
    if (!c.before) counts.added++;
    else if (!c.after) counts.removed++;
    else {
      if (c.renumbered) counts.renumbered++;
      if (c.textChange === 'references') counts.references++;
      if (c.textChange === 'substantive') counts.substantive++;
    }
  }
  return counts;
}
