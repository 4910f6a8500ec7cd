import type { Family } from '../../core/records.js';
import { lineageId, versionId } from '../../query/entityIds.js';
import type { HistoryStep as Step } from '../../query/KnowledgeBase.js';
import type { HistoryStepParent } from './HistoryStep.js';

/** A history as Query.history and Rule.history return it: its lineage, the family of its document, its steps. */
export interface HistoryParent {
  lineageId: number | null;
  family: Family;
  steps: Step[];
}

/** Resolvers of History: its global id is its lineage's (or, in a database without lineages, its first version's); its steps know their family. */
export const History = {
  id: (h: HistoryParent) => (h.lineageId !== null ? lineageId(h.lineageId) : `Lineage:${versionId(h.steps[0]!.date, h.steps[0]!.number, h.family)}`),
  steps: (h: HistoryParent): HistoryStepParent[] => h.steps.map((s) => ({ ...s, family: h.family })),
};
