import type { EditionInfo, RuleRecord } from '../../db/Reader.js';
import type { ApiContext } from '../ApiContext.js';
import { decodeCursor, encodeCursor, firstArg, ruleNumberArg } from '../args.js';
import { apiError } from '../errors.js';
import { MAX_SEARCH_LENGTH } from '../limits.js';
import { answerLookup } from '../lookup/answerLookup.js';
import { closestTerms, nearestNumbers } from '../lookup/suggest.js';
import { escapeHtml } from '../escapeHtml.js';

type Args<T> = T;
const SECTION_RE = /^\d{1,3}(?:\.\d{1,3}[a-z]{0,2})?$/;

/** A rule by number, or NOT_FOUND with the nearest numbers of that edition. */
export async function ruleOrNotFound(ctx: ApiContext, e: EditionInfo, number: string): Promise<RuleRecord> {
  const r = await ctx.loaders.rule.load({ editionId: e.id, key: number });
  if (r) return r;
  throw apiError('NOT_FOUND', `no rule ${number} in the ${e.effectiveDate} edition`, {
    suggestions: nearestNumbers(number, ctx.reader.numbers(e.id)),
    edition: e.effectiveDate,
  });
}

function notImplemented(what: string): never {
  throw apiError('NOT_IMPLEMENTED', `${what} is not available yet: the diff/history engine is not built into this server`);
}

/** Root query resolvers. */
export const Query = {
  editions(_: unknown, __: unknown, ctx: ApiContext) {
    ctx.cache.loose++;
    return ctx.reader.editions();
  },
  edition(_: unknown, a: Args<{ date?: string | null }>, ctx: ApiContext) {
    return ctx.edition(a.date);
  },
  rule(_: unknown, a: Args<{ number: string; edition?: string | null }>, ctx: ApiContext) {
    const e = ctx.edition(a.edition);
    return ruleOrNotFound(ctx, e, ruleNumberArg(a.number));
  },
  rules(
    _: unknown,
    a: Args<{ edition?: string | null; section?: string | null; first?: number | null; after?: string | null }>,
    ctx: ApiContext,
  ) {
    const e = ctx.edition(a.edition);
    const first = firstArg(a.first, 100);
    const after = decodeCursor('o', a.after) ?? -1;
    const section = a.section?.trim().replace(/\.$/, '') || null;
    if (section !== null && !SECTION_RE.test(section)) {
      throw apiError('BAD_USER_INPUT', `section must be a part, section or rule number, not "${section.slice(0, 40)}"`);
    }
    const rows = first === 0 ? [] : ctx.reader.rulesPage(e.id, { section, after, limit: first + 1 });
    const page = rows.slice(0, first);
    return connection(page, rows.length > first, (r) => encodeCursor('o', r.ord), e);
  },
  search(
    _: unknown,
    a: Args<{ query: string; edition?: string | null; first?: number | null; after?: string | null }>,
    ctx: ApiContext,
  ) {
    const e = ctx.edition(a.edition);
    if (a.query.length > MAX_SEARCH_LENGTH) {
      throw apiError('BAD_USER_INPUT', `the search text is longer than ${MAX_SEARCH_LENGTH} characters`);
    }
    const first = firstArg(a.first, 20);
    const start = (decodeCursor('s', a.after) ?? -1) + 1;
    const hits = first === 0 ? [] : ctx.reader.search(e.id, a.query, { limit: first + 1, offset: start, escape: escapeHtml });
    return connection(hits.slice(0, first), hits.length > first, (_h, i) => encodeCursor('s', start + i), e);
  },
  glossary(_: unknown, a: Args<{ term: string; edition?: string | null }>, ctx: ApiContext) {
    const e = ctx.edition(a.edition);
    const g = ctx.reader.glossaryTerm(e.id, a.term.slice(0, 200));
    if (g) return g;
    const terms = ctx.reader.glossary(e.id).map((x) => x.term);
    throw apiError('NOT_FOUND', `no glossary term "${a.term.slice(0, 60)}" in the ${e.effectiveDate} edition`, {
      suggestions: closestTerms(a.term.slice(0, 200), terms, 5, 4).map((s) => s.value),
      edition: e.effectiveDate,
    });
  },
  glossaryTerms(_: unknown, a: Args<{ edition?: string | null }>, ctx: ApiContext) {
    return ctx.reader.glossary(ctx.edition(a.edition).id);
  },
  keywords(_: unknown, a: Args<{ edition?: string | null }>, ctx: ApiContext) {
    return ctx.reader.keywords(ctx.edition(a.edition).id);
  },
  diff(
    _: unknown,
    a: Args<{ from: string; to: string; section?: string | null; first?: number | null; after?: string | null }>,
    ctx: ApiContext,
  ) {
    const from = ctx.edition(a.from);
    const to = ctx.edition(a.to);
    const first = firstArg(a.first, 100);
    const start = (decodeCursor('d', a.after) ?? -1) + 1;
    const section = a.section?.trim().replace(/\.$/, '') || null;
    if (section !== null && !SECTION_RE.test(section)) {
      throw apiError('BAD_USER_INPUT', `section must be a part, section or rule number, not "${section.slice(0, 40)}"`);
    }
    if (!ctx.engine.diff) notImplemented('diff');
    const all = ctx.engine.diff(ctx.reader.db, from, to, section);
    const counts = { added: 0, removed: 0, renumbered: 0, references: 0, substantive: 0 };
    for (const c of all) {
      if (!c.before) counts.added++;
      else if (!c.after) counts.removed++;
      else {
        if (c.renumbered) counts.renumbered++;
        if (c.textChange === 'references') counts.references++;
        if (c.textChange === 'substantive') counts.substantive++;
      }
    }
    const page = all.slice(start, start + first);
    const edges = page.map((node, i) => ({ cursor: encodeCursor('d', start + i), node }));
    return {
      from,
      to,
      counts,
      edges,
      nodes: page,
      pageInfo: { hasNextPage: start + first < all.length, endCursor: edges.at(-1)?.cursor ?? null },
    };
  },
  history(_: unknown, a: Args<{ number: string; edition?: string | null }>, ctx: ApiContext) {
    const e = ctx.edition(a.edition);
    const n = ruleNumberArg(a.number);
    if (!ctx.engine.history) notImplemented('history');
    const h = ctx.engine.history(ctx.reader.db, e, n);
    if (h) return h;
    throw apiError('NOT_FOUND', `no rule ${n} in the ${e.effectiveDate} edition`, {
      suggestions: nearestNumbers(n, ctx.reader.numbers(e.id)),
    });
  },
  lookup(_: unknown, a: Args<{ q: string; edition?: string | null }>, ctx: ApiContext) {
    return answerLookup(ctx.reader, ctx.edition(a.edition), a.q);
  },
};

/** A connection of a page; edges and cursors are made only when a query reads them. */
function connection<T>(page: T[], hasNextPage: boolean, cursorOf: (x: T, i: number) => string, edition: EditionInfo) {
  return {
    get edges() {
      return page.map((node, i) => ({ cursor: cursorOf(node, i), node }));
    },
    nodes: page,
    get pageInfo() {
      return { hasNextPage, endCursor: page.length > 0 ? cursorOf(page[page.length - 1]!, page.length - 1) : null };
    },
    edition,
  };
}
