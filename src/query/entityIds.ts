import type { EditionInfo, Family } from '../core/records.js';
import { RULE_NUMBER_RE, RULINGS_NUMBER_RE } from '../core/ruleNumber.js';
import { termKey } from '../core/termKey.js';

/**
 * Stable names of the knowledge base's entities, the same in every database built from the same
 * editions (no row ids): GraphQL's global `id`s and the feeds' entry ids are made from them.
 */

/** An edition's name: its effective date (an official Comprehensive Rules edition), the family before it otherwise, or its unofficial label. */
export function editionKey(e: Pick<EditionInfo, 'family' | 'effectiveDate' | 'label'>): string {
  if (e.label) return e.label;
  return e.family === 'cr' ? e.effectiveDate : `${e.family}:${e.effectiveDate}`;
}

/** A rule as it reads in one edition: `Rule:2021-07-23:702.19b`. */
export function ruleId(edition: string, number: string): string {
  return `Rule:${edition}:${number}`;
}

/** One glossary entry as it reads in one edition: `GlossaryEntry:2021-07-23:dies`. */
export function glossaryEntryId(edition: string, term: string): string {
  return `GlossaryEntry:${edition}:${termKey(term)}`;
}

/** A keyword ability or action of one edition: `Keyword:2021-07-23:ability:trample`. */
export function keywordId(edition: string, kind: string, name: string): string {
  return `Keyword:${edition}:${kind}:${termKey(name)}`;
}

/**
 * One step of a history: a rule's version (`RuleVersion:2014-05-01:100.1`) or a CR glossary term's
 * (`GlossaryVersion:…`), by edition date; another document's unit names its family as its edition's id
 * does (`RuleVersion:jar:2019-01-21:1.1`), since the MTR's and the JAR's 1.1 can share a date.
 */
export function versionId(date: string, number: string, family: Family = 'cr'): string {
  if (family !== 'cr') return `RuleVersion:${family}:${date}:${number}`;
  const rule = RULE_NUMBER_RE.test(number) || RULINGS_NUMBER_RE.test(number);
  return rule ? `RuleVersion:${date}:${number}` : `GlossaryVersion:${date}:${termKey(number)}`;
}

/** A rule's lineage, which survives renumbering and rewording: `Lineage:1234`. */
export function lineageId(lineage: number): string {
  return `Lineage:${lineage}`;
}
