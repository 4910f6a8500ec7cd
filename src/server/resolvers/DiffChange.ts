import { changeSegments, textClass } from '../../query/changeSegments.js';
import type { RuleChange } from '../../query/KnowledgeBase.js';

/** Resolvers of DiffChange: word segments are computed only for the changes a page shows and a query reads. */
export const DiffChange = {
  segments: (c: RuleChange) => changeSegments(c),
  textChange: (c: RuleChange) => textClass(c),
};
