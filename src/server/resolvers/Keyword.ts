import type { KeywordRecord } from '../../core/records.js';
import type { ApiContext } from '../ApiContext.js';

/** Resolvers of Keyword. */
export const Keyword = {
  rule: (k: KeywordRecord, _: unknown, ctx: ApiContext) => ctx.kb.rule(k.editionId, k.number),
};
