import type { KeywordRecord } from '../../core/records.js';
import { editionKey, keywordId } from '../../query/entityIds.js';
import type { ApiContext } from '../ApiContext.js';

/** Resolvers of Keyword. */
export const Keyword = {
  id: (k: KeywordRecord, _: unknown, ctx: ApiContext) => keywordId(editionKey(ctx.kb.editionById(k.editionId)!), k.kind, k.name),
  rule: (k: KeywordRecord, _: unknown, ctx: ApiContext) => ctx.kb.rule(k.editionId, k.number),
};
