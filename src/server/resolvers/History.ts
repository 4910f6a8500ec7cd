import type { ApiContext } from '../ApiContext.js';
import type { DiffChangeData, HistoryStepData } from '../engine.js';

/** Resolvers of HistoryStep: the step's edition by effective date. */
export const HistoryStep = {
  edition(s: HistoryStepData, _: unknown, ctx: ApiContext) {
    return ctx.reader.resolveEdition(s.effectiveDate)?.edition ?? null;
  },
  segments: (s: HistoryStepData) => s.segments ?? [],
};

/** Resolvers of DiffChange. */
export const DiffChange = {
  segments: (c: DiffChangeData) => c.segments ?? [],
};
