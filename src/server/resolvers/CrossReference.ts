import type { ApiContext } from '../ApiContext.js';
import type { CrossRefParent } from './Rule.js';

/** Resolvers of CrossReference: the target is looked up in the citing text's edition. */
export const CrossReference = {
  targetNumber: (x: CrossRefParent) => x.ref.target,
  kind: (x: CrossRefParent) => x.ref.kind,
  source: (x: CrossRefParent) => x.source,
  exampleIndex: (x: CrossRefParent) => x.exampleIndex,
  start: (x: CrossRefParent) => x.ref.start,
  end: (x: CrossRefParent) => x.ref.end,
  target(x: CrossRefParent, _: unknown, ctx: ApiContext) {
    if (x.ref.kind === 'part') return null;
    return ctx.loaders.rule.load({ editionId: x.editionId, key: x.ref.target });
  },
  async dangling(x: CrossRefParent, _: unknown, ctx: ApiContext) {
    if (x.ref.kind === 'part') return !(await ctx.loaders.partNumbers.load(x.editionId)).has(x.ref.target);
    return (await ctx.loaders.rule.load({ editionId: x.editionId, key: x.ref.target })) === null;
  },
};
