import type { EditionInfo } from '../../db/Reader.js';
import type { ApiContext } from '../ApiContext.js';

/** Resolvers of Edition. */
export const Edition = {
  ruleCount(e: EditionInfo, _: unknown, ctx: ApiContext) {
    return ctx.reader.ruleCount(e.id);
  },
  parts(e: EditionInfo, _: unknown, ctx: ApiContext) {
    return ctx.reader.parts(e.id);
  },
  abilityWords(e: EditionInfo, _: unknown, ctx: ApiContext) {
    return ctx.reader.abilityWords(e.id);
  },
};
