import type { KeywordRecord } from '../../db/Reader.js';
import type { ApiContext } from '../ApiContext.js';

/** Resolvers of Keyword. */
export const Keyword = {
  rule(k: KeywordRecord, _: unknown, ctx: ApiContext) {
    return ctx.loaders.rule.load({ editionId: k.editionId, key: k.number });
  },
};
