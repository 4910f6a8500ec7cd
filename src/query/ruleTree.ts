import type { RuleRecord } from '../core/records.js';
import { inScope } from '../core/ruleNumber.js';
import type { Snapshot } from '../db/Snapshot.js';

// An edition's rules as a tree, walked in document order (see KnowledgeBase for what each answers).

/** The rules below a rule (subrules at every depth), in document order. */
export function descendants(s: Snapshot, rule: RuleRecord, limit = 2000): RuleRecord[] {
  const inside = new Set([rule.number]);
  const out: RuleRecord[] = [];
  for (let p = rule.ord + 1; out.length < limit; p++) {
    const r = s.ruleAt(rule.editionId, p);
    if (!r || r.parent === null || !inside.has(r.parent)) break;
    inside.add(r.number);
    out.push(r);
  }
  return out;
}

/** How many rules lie below a rule number in an edition (subrules at every depth; nothing of them read), or -1 when it has no such rule. */
export function subtreeSize(s: Snapshot, editionId: number, number: string): number {
  const at = s.positionOfNumber(editionId, number);
  if (at < 0) return -1;
  const numbers = s.numbers(editionId);
  let end = at + 1;
  // (702.1's subrules are 702.1a…, not 702.10)
  while (end < numbers.length && numbers[end]!.startsWith(number) && !/\d/.test(numbers[end]!.charAt(number.length))) end++;
  return end - at - 1;
}

/** Direct children of a rule, in document order. */
export function children(s: Snapshot, rule: RuleRecord): RuleRecord[] {
  return descendants(s, rule, Infinity).filter((r) => r.parent === rule.number);
}

/** Direct children of several rules of one edition, by parent number. */
export function childrenOf(s: Snapshot, editionId: number, numbers: readonly string[]): Map<string, RuleRecord[]> {
  return new Map(
    numbers.map((n) => {
      const r = s.ruleByNumber(editionId, n);
      return [n, r ? children(s, r) : []];
    }),
  );
}

/** The enclosing rules of a rule, nearest first. */
export function ancestors(s: Snapshot, rule: RuleRecord): RuleRecord[] {
  const out: RuleRecord[] = [];
  const seen = new Set<string>();
  let parent = rule.parent;
  while (parent !== null && !seen.has(parent)) {
    seen.add(parent);
    const r = s.ruleByNumber(rule.editionId, parent);
    if (!r) break;
    out.push(r);
    parent = r.parent;
  }
  return out;
}

/** The rules of the same kind just before and after a rule, skipping what lies between. */
export function adjacent(s: Snapshot, rule: RuleRecord): { previous: RuleRecord | null; next: RuleRecord | null } {
  const find = (step: 1 | -1): RuleRecord | null => {
    // (the rules walked past are told apart by number and kind: only the one found is read)
    for (let p = rule.ord + step; ; p += step) {
      const r = p >= 0 ? s.headAt(rule.editionId, p) : null;
      if (!r) return null;
      // a number printed twice (2024-09-20's 702.175) is one page: step past its other copies
      if (r.kind === rule.kind && r.number !== rule.number) return s.ruleAt(rule.editionId, p);
    }
  };
  return { previous: find(-1), next: find(1) };
}

/** A page of rules in document order after position `after`, within `section` (a part, section or rule) if given. */
export function rulesPage(s: Snapshot, editionId: number, opts: { section?: string | null; after?: number; limit: number }): RuleRecord[] {
  const section = opts.section ?? null;
  const keep = (n: string): boolean => section === null || inScope(n, section);
  const out: RuleRecord[] = [];
  const count = s.ruleCount(editionId);
  const numbers = s.numbers(editionId);
  for (let p = Math.max(0, (opts.after ?? -1) + 1); p < count && out.length < opts.limit; p++) {
    if (keep(numbers[p]!)) out.push(s.ruleAt(editionId, p)!);
  }
  return out;
}

/** Section rules of an edition ("702" → "Keyword Abilities"). */
export function sections(s: Snapshot, editionId: number): Array<{ number: string; title: string }> {
  const out: Array<{ number: string; title: string }> = [];
  s.numbers(editionId).forEach((n, p) => {
    // CR sections are numbered without a dot ("702"); the Rulings Summaries' are not numbers ("E.13")
    if (n.includes('.') && /^\d/.test(n)) return;
    const r = s.ruleAt(editionId, p)!;
    if (r.kind === 'section') out.push({ number: r.number, title: r.text });
  });
  return out;
}
