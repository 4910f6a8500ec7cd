import type { Family } from '../../core/records.js';
import { versionId } from '../../query/entityIds.js';
import type { HistoryStep as Step } from '../../query/KnowledgeBase.js';
import type { ApiContext } from '../ApiContext.js';

/** A history step with the family of the rule's document (a glossary term's steps have none: the CR's). */
export type HistoryStepParent = Step & { family?: Family };

/** Resolvers of HistoryStep: the step's edition by effective date, among its document's editions. */
export const HistoryStep = {
  id: (s: HistoryStepParent) => versionId(s.date, s.number, s.family),
  // a tournament document's step is its own edition, not the CR's in force that day
  edition: (s: HistoryStepParent, _: unknown, ctx: ApiContext) => ctx.kb.resolveEdition(s.date, s.family ?? 'cr').edition,
  textChange: (s: HistoryStepParent) => (s.change === 'added' ? null : (s.textChange ?? 'none')),
  segments: (s: HistoryStepParent) => s.segments ?? [],
  subrules: (s: HistoryStepParent) => s.subrules ?? null,
};
