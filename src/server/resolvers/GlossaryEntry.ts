import type { GlossaryRecord } from '../../db/Reader.js';
import type { ApiContext } from '../ApiContext.js';
import type { CrossRefParent } from './Rule.js';

/** Resolvers of GlossaryEntry. */
export const GlossaryEntry = {
  async references(g: GlossaryRecord, _: unknown, ctx: ApiContext): Promise<CrossRefParent[]> {
    const refs = await ctx.loaders.refs.load(g.textId);
    return refs.map((ref) => ({ ref, editionId: g.editionId, source: 'text', exampleIndex: null }));
  },
  edition(g: GlossaryRecord, _: unknown, ctx: ApiContext) {
    return ctx.loaders.edition.load(g.editionId);
  },
};
