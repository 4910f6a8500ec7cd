import { changeSegments, textClass } from '../../query/changeSegments.js';
import type { HistoryStep as Step, RuleChange } from '../../query/KnowledgeBase.js';
import type { ApiContext } from '../ApiContext.js';

/** Resolvers of HistoryStep: the step's edition by effective date. */
export const HistoryStep = {
  edition: (s: Step, _: unknown, ctx: ApiContext) => ctx.kb.resolveEdition(s.date).edition,
  // a step's text is compared only when it changed: 'none' there means typography only
  textChange: (s: Step) => (s.change === 'added' ? null : s.textChange === 'none' ? 'typography' : (s.textChange ?? 'none')),
  segments: (s: Step) => s.segments ?? [],
};

/** Resolvers of DiffChange: word segments are computed only for the changes a page shows and a query reads. */
export const DiffChange = {
  segments: (c: RuleChange) => changeSegments(c),
  textChange: (c: RuleChange) => textClass(c),
};
