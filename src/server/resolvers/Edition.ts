import type { EditionInfo } from '../../core/records.js';
import { editionKey } from '../../query/entityIds.js';
import type { ApiContext } from '../ApiContext.js';

/** Resolvers of Edition. */
export const Edition = {
  id: (e: EditionInfo) => `Edition:${editionKey(e)}`,
  ruleCount: (e: EditionInfo, _: unknown, ctx: ApiContext) => ctx.kb.ruleCount(e.id),
  parts: (e: EditionInfo, _: unknown, ctx: ApiContext) => ctx.kb.parts(e.id),
  abilityWords: (e: EditionInfo, _: unknown, ctx: ApiContext) => ctx.kb.abilityWords(e.id),
  danglingReferences: (e: EditionInfo, _: unknown, ctx: ApiContext) => ctx.kb.dangling(e.id),
  staleReferences: (e: EditionInfo, _: unknown, ctx: ApiContext) => ctx.kb.staleRefs(e.id),
  // (an answer saying the database is behind changes once it is updated: never cached as immutable)
  newerKnown: (_e: EditionInfo, _: unknown, ctx: ApiContext) => {
    ctx.cache.loose++;
    return ctx.kb.newerKnown();
  },
};
