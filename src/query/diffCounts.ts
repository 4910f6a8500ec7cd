import { countChanges, type RuleChange } from '../engine/diffEditions.js';

/** How many rules a diff added, removed, renumbered, changed only in references, reworded. */
export interface DiffCounts {
  added: number;
  removed: number;
  renumbered: number;
  references: number;
  substantive: number;
}

/** A diff's rule changes counted by kind (engine's countChanges, which diffs count with), as the edges show them. */
export function diffCounts(changes: readonly RuleChange[]): DiffCounts {
  const { added, removed, renumbered, references, substantive } = countChanges(changes);
  return { added, removed, renumbered, references, substantive };
}
