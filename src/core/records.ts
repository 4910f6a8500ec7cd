/**
 * The read model: editions, rules, glossary entries and references as the query layer and every
 * edge (CLI, REST, GraphQL, web, integrations) see them.
 */

import type { Family } from './families.js';

/** Which family of documents an edition belongs to (the list is in families.ts). */
export type { Family };

/** An edition as the read side sees it. */
export interface EditionInfo {
  id: number;
  family: Family;
  effectiveDate: string;
  official: boolean;
  /** '' for official editions; "unofficial:…" for fragments that matched no official edition. */
  label: string;
  setCode: string | null;
  setName: string | null;
  title: string | null;
}

/** One rule as it reads in one edition. */
export interface RuleRecord {
  editionId: number;
  /** Position in the edition's document order. */
  ord: number;
  versionId: number;
  number: string;
  kind: string;
  parent: string | null;
  textId: number;
  text: string;
  /** Text ids of the rule's examples, in published order. */
  exampleIds: number[];
  lineageId: number | null;
}

/** A glossary entry as it reads in one edition. */
export interface GlossaryRecord {
  editionId: number;
  ord: number;
  versionId: number;
  term: string;
  textId: number;
  definition: string;
}

/** A keyword ability or action of one edition. */
export interface KeywordRecord {
  kind: 'ability' | 'action';
  number: string;
  name: string;
  editionId: number;
}

/** One stored cross-reference of a text. */
export interface TextRefRecord {
  textId: number;
  ord: number;
  target: string;
  kind: 'rule' | 'section' | 'part';
  start: number;
  end: number;
}

/** A part heading ("7. Additional Rules"). */
export interface PartRecord {
  number: string;
  title: string;
}

/** What a search hit is: a rule's text, one of its examples, or a glossary definition. */
export type SearchHitKind = 'rule' | 'example' | 'glossary';

/** One full-text search hit in an edition. */
export interface SearchHitRecord {
  kind: SearchHitKind;
  textId: number;
  /** bm25 score: lower is better. */
  score: number;
  /** The rule (kind rule or example). */
  rule: RuleRecord | null;
  /** Index of the example within its rule (kind example). */
  exampleIndex: number | null;
  glossary: GlossaryRecord | null;
  /** A short excerpt around the matches, marked. */
  snippet: string;
  /** The whole text, matches marked. */
  highlighted: string;
  /** The words searched for when a misspelt word was read as the edition's closest word ("combat damage" for "comabt damage"), else null. */
  correctedQuery: string | null;
}

/** Markers around matched terms in snippets and highlights. */
export interface HighlightMarks {
  open: string;
  close: string;
}
