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
