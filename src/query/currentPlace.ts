import type { EditionInfo, RuleRecord } from '../core/records.js';
import { nearestNumbers } from '../core/suggest.js';
import type { KnowledgeBase } from './KnowledgeBase.js';
import { QueryError } from './QueryError.js';

/** A rule where a number was followed to: the edition and the rule there. */
interface Place {
  edition: EditionInfo;
  rule: RuleRecord;
}

/**
 * Where a user's number is now: the rule of that number in `edition`, or, when `edition` has none (a
 * number retired or renumbered away), in the last official edition of its family that has one.
 * NOT_FOUND, with the nearest numbers of `edition`, when no edition has it.
 */
export function currentPlace(kb: KnowledgeBase, number: string, edition: EditionInfo): Place {
  const here = kb.rule(edition.id, number);
  if (here) return { edition, rule: here };
  const last = kb.editionsWithNumber(number, edition.family).at(-1);
  if (last) return { edition: last, rule: kb.rule(last.id, number)! };
  throw new QueryError('NOT_FOUND', `no rule ${number} in any stored edition`, {
    suggestions: nearestNumbers(number, kb.numbers(edition.id)),
    edition: edition.effectiveDate,
  });
}

/** The same rule (its lineage, across renumbering) in another edition, or null; a rule never aligned is matched by number. */
export function sameRuleIn(kb: KnowledgeBase, rule: RuleRecord, edition: EditionInfo): RuleRecord | null {
  if (rule.editionId === edition.id) return rule;
  if (rule.lineageId === null) return kb.rule(edition.id, rule.number);
  const place = kb.snapshot.lineagePlaces(rule.lineageId).find(([e]) => e === edition.id);
  return place ? kb.snapshot.ruleAt(edition.id, place[1]) : null;
}

/** What the lineage says of a number an edition lacks: the rule it named last, and where that rule is in the edition. */
export interface FormerNumber {
  number: string;
  /** The edition nearest before (else after) the asked one that has the number. */
  then: EditionInfo;
  /** Whether `then` is before the asked edition (the number went) or after it (the number came later). */
  earlier: boolean;
  /** The same rule (lineage) in the asked edition, under its number there; null when it is not in it. */
  now: RuleRecord | null;
  /** When the rule is not in the asked edition: the first official edition without it after `then` (null when `then` is later). */
  goneSince: string | null;
  /** The rule of the asked edition it was merged into, when the lineage records a merge. */
  mergedInto: RuleRecord | null;
}

/**
 * What became of a number `edition` lacks, by the lineage: "706.10 (until 2021-06-18) is now 707.10",
 * or "removed in … (merged into …)"; null when the edition has the number or no official edition ever had it.
 */
export function formerNumber(kb: KnowledgeBase, number: string, edition: EditionInfo): FormerNumber | null {
  if (kb.rule(edition.id, number)) return null;
  const withIt = kb.editionsWithNumber(number, edition.family);
  const before = withIt.filter((e) => e.effectiveDate < edition.effectiveDate).at(-1);
  const then = before ?? withIt.find((e) => e.effectiveDate > edition.effectiveDate);
  if (!then) return null;
  const rule = kb.rule(then.id, number)!;
  const now = sameRuleIn(kb, rule, edition);
  const gone = !now && before ? goneFrom(kb, rule, then, edition) : { goneSince: null, mergedInto: null };
  return { number, then, earlier: before !== undefined, now, ...gone };
}

/** Where a rule of `then` is in a later `edition`: the same rule (lineage) there, or since when it is gone and what it merged into. */
export function ruleNow(
  kb: KnowledgeBase,
  rule: RuleRecord,
  then: EditionInfo,
  edition: EditionInfo,
): { now: RuleRecord | null; goneSince: string | null; mergedInto: RuleRecord | null } {
  const now = sameRuleIn(kb, rule, edition);
  return now ? { now, goneSince: null, mergedInto: null } : { now, ...goneFrom(kb, rule, then, edition) };
}

function goneFrom(kb: KnowledgeBase, rule: RuleRecord, then: EditionInfo, edition: EditionInfo): { goneSince: string; mergedInto: RuleRecord | null } {
  const present = new Set(rule.lineageId === null ? [then.id] : kb.snapshot.lineagePlaces(rule.lineageId).map(([e]) => e));
  const after = kb
    .editions()
    .filter((e) => e.family === edition.family && e.official && e.effectiveDate > then.effectiveDate && e.effectiveDate <= edition.effectiveDate);
  const goneSince = after.find((e) => !present.has(e.id))?.effectiveDate ?? edition.effectiveDate;
  let mergedInto: RuleRecord | null = null;
  if (rule.lineageId !== null) {
    const merge = kb.snapshot.linksBetween(then.id, edition.id).find((l) => l.kind === 'merge' && l.prevLineage === rule.lineageId);
    const place = merge ? kb.snapshot.lineagePlaces(merge.lineage).find(([e]) => e === edition.id) : undefined;
    mergedInto = place ? kb.snapshot.ruleAt(edition.id, place[1]) : null;
  }
  return { goneSince, mergedInto };
}
