import type { HistoryStep as Step } from '../../engine/history.js';
import type { RuleChange } from '../../engine/diffEditions.js';
import type { ApiContext } from '../ApiContext.js';

/** Resolvers of HistoryStep: the step's edition by effective date. */
export const HistoryStep = {
  edition: (s: Step, _: unknown, ctx: ApiContext) => ctx.kb.resolveEdition(s.date).edition,
  textChange: (s: Step) => (s.change === 'added' ? null : (s.textChange ?? 'none')),
  segments: (s: Step) => s.segments ?? [],
};

/** Resolvers of DiffChange. */
export const DiffChange = {
  segments: (c: RuleChange) => c.segments ?? [],
};
