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
    return x.ref.kind === 'part' ? null : ctx.kb.rule(x.editionId, x.ref.target);
  },
  dangling(x: CrossRefParent, _: unknown, ctx: ApiContext) {
    if (x.ref.kind === 'part') return !ctx.kb.parts(x.editionId).some((p) => p.number === x.ref.target);
    return ctx.kb.rule(x.editionId, x.ref.target) === null;
  },
};
