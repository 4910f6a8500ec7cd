export { extractReferences, expandRange } from './references.js';
export type { Reference } from './references.js';
export { alignEditions, assignLineages } from './align.js';
export type { AlignRule, Alignment, AlignMethod, AlignOptions } from './align.js';
export { wordDiff, tokenizeWords } from './wordDiff.js';
export type { DiffSegment } from './wordDiff.js';
export { compareRuleText } from './compareRule.js';
export type { TextChange, ResolveLineage, RuleTextComparison } from './compareRule.js';
export { loadDiff } from './loadDiff.js';
export {
  diffEditions,
  diffPaired,
  pairRules,
  pairLineages,
  changeOrder,
  lineageResolver,
  diffGlossary,
  diffToJson,
  sectionOf,
  inScope,
  withReferences,
} from './diffEditions.js';
export type {
  DiffRule,
  DiffEdition,
  DiffOptions,
  PairedEditions,
  EditionDiff,
  RuleChange,
  ChangeKind,
  ExampleChange,
  GlossaryChange,
} from './diffEditions.js';
export { ruleHistory } from './history.js';
export type { HistoryRow, HistoryStep, RuleHistory } from './history.js';
