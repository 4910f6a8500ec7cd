import type { RuleRecord, TextRefRecord } from '../../db/Reader.js';
import type { ApiContext } from '../ApiContext.js';
import { apiError } from '../errors.js';

/** A reference as the CrossReference resolvers see it. */
export interface CrossRefParent {
  ref: TextRefRecord;
  editionId: number;
  source: 'text' | 'example';
  exampleIndex: number | null;
}

/** Resolvers of Rule. */
export const Rule = {
  examples(r: RuleRecord, _: unknown, ctx: ApiContext) {
    return ctx.loaders.text.loadMany(r.exampleIds);
  },
  parent(r: RuleRecord, _: unknown, ctx: ApiContext) {
    return r.parent === null ? null : ctx.loaders.rule.load({ editionId: r.editionId, key: r.parent });
  },
  children(r: RuleRecord, _: unknown, ctx: ApiContext) {
    return ctx.loaders.children.load({ editionId: r.editionId, key: r.number });
  },
  async ancestors(r: RuleRecord, _: unknown, ctx: ApiContext) {
    const out: RuleRecord[] = [];
    let parent = r.parent;
    while (parent !== null && out.length < 10) {
      const p = await ctx.loaders.rule.load({ editionId: r.editionId, key: parent });
      if (!p) break;
      out.push(p);
      parent = p.parent;
    }
    return out;
  },
  edition(r: RuleRecord, _: unknown, ctx: ApiContext) {
    return ctx.loaders.edition.load(r.editionId);
  },
  position(r: RuleRecord) {
    return r.ord;
  },
  async references(r: RuleRecord, _: unknown, ctx: ApiContext): Promise<CrossRefParent[]> {
    const [own, ...ex] = await ctx.loaders.refs.loadMany([r.textId, ...r.exampleIds]);
    const out: CrossRefParent[] = (own ?? []).map((ref) => ({ ref, editionId: r.editionId, source: 'text', exampleIndex: null }));
    ex.forEach((refs, i) => {
      for (const ref of refs) out.push({ ref, editionId: r.editionId, source: 'example', exampleIndex: i });
    });
    return out;
  },
  referencedBy(r: RuleRecord, _: unknown, ctx: ApiContext) {
    return ctx.loaders.citing.load({ editionId: r.editionId, key: r.number });
  },
  referencedByGlossary(r: RuleRecord, _: unknown, ctx: ApiContext) {
    return ctx.loaders.glossaryCiting.load({ editionId: r.editionId, key: r.number });
  },
  async history(r: RuleRecord, _: unknown, ctx: ApiContext) {
    if (!ctx.engine.history) {
      throw apiError('NOT_IMPLEMENTED', 'history is not available yet: the diff/history engine is not built into this server');
    }
    const e = await ctx.loaders.edition.load(r.editionId);
    return e ? ctx.engine.history(ctx.reader.db, e, r.number) : null;
  },
};
