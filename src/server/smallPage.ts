import { numberLevel } from '../core/ruleNumber.js';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import type { HeavyKind } from './HeavyPool.js';

/**
 * The most rules below a section whose page, or below a rule whose history, is answered on the
 * serving thread: measured on the corpus, such a page takes a few milliseconds (a section of 80
 * rules about 6 ms, a rule's history over 111 editions about 4 ms), less than the trip to the heavy
 * thread and back. Larger ones (702 with 638 rules, 701, every section's history) stay on it.
 */
const SMALL = { page: 100, history: 40 };

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Whether a request of a costly kind is small enough for the serving thread: a section page or a
 * rule's (not a section's) history whose subtree, in the edition asked for, is small (SMALL). Read
 * from the edition's number list, nothing of the rules; anything unusual (an unknown edition or
 * number, a former number) is not small and goes to the heavy thread as before.
 */
export function smallPage(kb: () => KnowledgeBase): (kind: HeavyKind, path: string, query: Record<string, unknown>) => boolean {
  return (kind, path, query) => {
    let edition: string;
    let number: string;
    if (kind === 'page') {
      const m = /^\/cr\/([^/]+)\/([^/]+)$/.exec(path);
      if (!m) return false;
      [edition, number] = [m[1]!, m[2]!];
      if (numberLevel(number) !== 'section') return false;
    } else if (kind === 'history') {
      const m = /^\/history\/([^/]+)$/.exec(path);
      if (!m) return false;
      [edition, number] = [one(query.edition) || 'latest', m[1]!];
      const level = numberLevel(number);
      if (level !== 'rule' && level !== 'subrule') return false;
    } else return false;
    try {
      const k = kb();
      const size = k.subtreeSize(k.resolveEdition(decodeURIComponent(edition)).edition.id, number);
      return size >= 0 && size <= SMALL[kind];
    } catch {
      // (a bad edition or escape: the heavy thread answers the error, as before)
      return false;
    }
  };
}
