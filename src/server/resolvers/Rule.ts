import type { RuleRecord, TextRefRecord } from '../../core/records.js';
import { editionKey, ruleId } from '../../query/entityIds.js';
import type { ApiContext } from '../ApiContext.js';

/** A reference as the CrossReference resolvers see it. */
export interface CrossRefParent {
  ref: TextRefRecord;
  editionId: number;
  source: 'text' | 'example';
  exampleIndex: number | null;
}

/** Resolvers of Rule: every field read from the query layer's in-memory snapshot (no batching needed). */
export const Rule = {
  id: (r: RuleRecord, _: unknown, ctx: ApiContext) => ruleId(editionKey(ctx.kb.editionById(r.editionId)!), r.number),
  examples: (r: RuleRecord, _: unknown, ctx: ApiContext) => ctx.kb.examples(r),
  notes: (r: RuleRecord, _: unknown, ctx: ApiContext) => ctx.kb.notes(r),
  parent: (r: RuleRecord, _: unknown, ctx: ApiContext) => (r.parent === null ? null : ctx.kb.rule(r.editionId, r.parent)),
  children: (r: RuleRecord, _: unknown, ctx: ApiContext) => ctx.kb.children(r),
  ancestors: (r: RuleRecord, _: unknown, ctx: ApiContext) => ctx.kb.ancestors(r),
  // a stored rule's edition always exists (Edition! in the SDL)
  edition: (r: RuleRecord, _: unknown, ctx: ApiContext) => ctx.kb.editionById(r.editionId)!,
  position: (r: RuleRecord) => r.ord,
  unit: (r: RuleRecord, _: unknown, ctx: ApiContext) => ctx.kb.unit(r),
  duplicates(r: RuleRecord, _: unknown, ctx: ApiContext) {
    const all = ctx.kb.sameNumber(r);
    return all.length > 1 ? all : [];
  },
  references(r: RuleRecord, _: unknown, ctx: ApiContext): CrossRefParent[] {
    const refs = ctx.kb.refsOfTexts([r.textId, ...r.exampleIds]);
    const out: CrossRefParent[] = refs.get(r.textId)!.map((ref) => ({ ref, editionId: r.editionId, source: 'text', exampleIndex: null }));
    r.exampleIds.forEach((id, i) => {
      for (const ref of refs.get(id) ?? []) out.push({ ref, editionId: r.editionId, source: 'example', exampleIndex: i });
    });
    return out;
  },
  // the rules of its own edition, then the other documents' sections (and rules) citing it
  referencedBy: (r: RuleRecord, _: unknown, ctx: ApiContext) => [...(ctx.kb.citing(r.editionId, [r.number]).get(r.number) ?? []), ...ctx.kb.citingElsewhere(r)],
  referencedByGlossary: (r: RuleRecord, _: unknown, ctx: ApiContext) => ctx.kb.glossaryCiting(r.editionId, [r.number]).get(r.number) ?? [],
  history(r: RuleRecord, _: unknown, ctx: ApiContext) {
    ctx.check();
    const e = ctx.kb.editionById(r.editionId)!;
    const h = ctx.kb.history(e, r.number);
    return h && { lineageId: h.lineage, family: e.family, steps: h.steps };
  },
};
