import type { EditionInfo, Family } from '../core/records.js';
import type { KnowledgeBase } from './KnowledgeBase.js';

/** One release: an official edition and the one before it, with how many rules came, went, moved or changed. */
export interface Release {
  from: EditionInfo;
  to: EditionInfo;
  /** Rules (lineages) in `to` and not in `from`. */
  added: number;
  removed: number;
  /** Rules in both under another number. */
  renumbered: number;
  /** Rules in both whose stored version differs (text, number or examples): what the diff classifies. */
  changed: number;
}

/**
 * Every release of a family (each official edition against the one before), oldest first, counted from the
 * editions' lineages and stored versions alone (no word diff: about 1 ms a release, so an index of every
 * release costs no more than one diff).
 */
export function releaseList(kb: KnowledgeBase, family: Family = 'cr'): Release[] {
  const eds = kb.officialEditions(family);
  const out: Release[] = [];
  let prev = eds[0] ? kb.snapshot.ruleIds(eds[0].id) : null;
  for (let i = 1; i < eds.length; i++) {
    const cur = kb.snapshot.ruleIds(eds[i]!.id);
    const before = new Map<number, number>();
    for (let k = 0; k < prev!.lineages.length; k++) before.set(prev!.lineages[k]!, k);
    let added = 0;
    let renumbered = 0;
    let changed = 0;
    let kept = 0;
    for (let k = 0; k < cur.lineages.length; k++) {
      const j = before.get(cur.lineages[k]!);
      if (j === undefined) {
        added++;
        continue;
      }
      kept++;
      if (prev!.versions[j] === cur.versions[k]) continue;
      changed++;
      if (prev!.numbers[j] !== cur.numbers[k]) renumbered++;
    }
    out.push({ from: eds[i - 1]!, to: eds[i]!, added, removed: before.size - kept, renumbered, changed });
    prev = cur;
  }
  return out;
}

/** The release before and after the transition from → to (neighbouring official editions), when there are. */
export function neighbourReleases(
  kb: KnowledgeBase,
  from: EditionInfo,
  to: EditionInfo,
): { previous: [EditionInfo, EditionInfo] | null; next: [EditionInfo, EditionInfo] | null } {
  const eds = kb.officialEditions(to.family);
  const i = eds.findIndex((e) => e.id === to.id);
  const j = eds.findIndex((e) => e.id === from.id);
  if (i < 0) return { previous: null, next: null };
  // a neighbour release: the one ending at `from` and the one starting at `to`, for a diff of any span
  const start = j >= 0 ? j : i - 1;
  return {
    previous: start >= 1 ? [eds[start - 1]!, eds[start]!] : null,
    next: i + 1 < eds.length ? [eds[i]!, eds[i + 1]!] : null,
  };
}
