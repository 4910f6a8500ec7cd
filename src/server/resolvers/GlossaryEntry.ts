import type { GlossaryRecord } from '../../core/records.js';
import { editionKey, glossaryEntryId } from '../../query/entityIds.js';
import type { ApiContext } from '../ApiContext.js';
import type { CrossRefParent } from './Rule.js';

/** Resolvers of GlossaryEntry. */
export const GlossaryEntry = {
  id: (g: GlossaryRecord, _: unknown, ctx: ApiContext) => glossaryEntryId(editionKey(ctx.kb.editionById(g.editionId)!), g.term),
  references(g: GlossaryRecord, _: unknown, ctx: ApiContext): CrossRefParent[] {
    return ctx.kb
      .refsOfTexts([g.textId])
      .get(g.textId)!
      .map((ref) => ({ ref, editionId: g.editionId, source: 'text', exampleIndex: null }));
  },
  // a stored entry's edition always exists (Edition! in the SDL)
  edition: (g: GlossaryRecord, _: unknown, ctx: ApiContext) => ctx.kb.editionById(g.editionId)!,
};
