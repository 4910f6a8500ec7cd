import { refTarget } from '../../core/policyReferences.js';
import type { ApiContext } from '../ApiContext.js';
import type { CrossRefParent } from './Rule.js';

/** Resolvers of CrossReference: the target is looked up in the citing text's edition (another document's: its edition in force then). */
export const CrossReference = {
  targetNumber: (x: CrossRefParent) => refTarget(x.ref.target).number,
  family: (x: CrossRefParent, _: unknown, ctx: ApiContext) => refTarget(x.ref.target).family ?? ctx.kb.editionById(x.editionId)!.family,
  kind: (x: CrossRefParent) => x.ref.kind,
  source: (x: CrossRefParent) => x.source,
  exampleIndex: (x: CrossRefParent) => x.exampleIndex,
  start: (x: CrossRefParent) => x.ref.start,
  end: (x: CrossRefParent) => x.ref.end,
  target: (x: CrossRefParent, _: unknown, ctx: ApiContext) => ctx.kb.refRule(x.editionId, x.ref),
  dangling: (x: CrossRefParent, _: unknown, ctx: ApiContext) => !ctx.kb.refExists(x.editionId, x.ref),
};
