import { versionId } from '../../query/entityIds.js';
import type { HistoryStep as Step } from '../../query/KnowledgeBase.js';
import type { ApiContext } from '../ApiContext.js';

/** Resolvers of HistoryStep: the step's edition by effective date. */
export const HistoryStep = {
  id: (s: Step) => versionId(s.date, s.number),
  edition: (s: Step, _: unknown, ctx: ApiContext) => ctx.kb.resolveEdition(s.date).edition,
  textChange: (s: Step) => (s.change === 'added' ? null : (s.textChange ?? 'none')),
  segments: (s: Step) => s.segments ?? [],
  subrules: (s: Step) => s.subrules ?? null,
};
