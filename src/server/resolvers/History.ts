import { lineageId, versionId } from '../../query/entityIds.js';
import type { HistoryStep as Step } from '../../query/KnowledgeBase.js';

/** A history as Query.history and Rule.history return it. */
export interface HistoryParent {
  lineageId: number | null;
  steps: Step[];
}

/** Resolvers of History: its global id is its lineage's (or, in a database without lineages, its first version's). */
export const History = {
  id: (h: HistoryParent) => (h.lineageId !== null ? lineageId(h.lineageId) : `Lineage:${versionId(h.steps[0]!.date, h.steps[0]!.number)}`),
};
