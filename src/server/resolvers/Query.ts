import type { EditionInfo } from '../../core/records.js';
import { escapeSnippet } from '../../core/escapeHtml.js';
import { isPolicyFamily } from '../../core/policyUnit.js';
import { checkCitations } from '../../query/checkCitations.js';
import { diffCounts } from '../../query/diffCounts.js';
import { familyArg, ruleNumberArg, scopeArg } from '../../query/edgeArgs.js';
import type { ApiContext } from '../ApiContext.js';
import { decodeCursor, encodeCursor } from '../args.js';
import { apiError } from '../errors.js';
import type {
  QueryCitationsArgs,
  QueryDiffArgs,
  QueryEditionArgs,
  QueryEditionsArgs,
  QueryGlossaryArgs,
  QueryGlossaryHistoryArgs,
  QueryGlossaryTermsArgs,
  QueryHistoryArgs,
  QueryKeywordsArgs,
  QueryLookupArgs,
  QueryRuleArgs,
  QueryRulesArgs,
  QuerySearchArgs,
} from '../generated/schema.js';

/** Root query resolvers: each one call into the query layer. A connection's `first` was checked against PAGE_MAX with the operation's cost (limits.ts). */
export const Query = {
  editions(_: unknown, a: QueryEditionsArgs, ctx: ApiContext) {
    ctx.cache.loose++;
    if (a.family === undefined || a.family === null) return ctx.kb.editions().filter((e) => !isPolicyFamily(e.family));
    const family = ctx.run(() => familyArg(a.family));
    return ctx.kb.editions().filter((e) => e.family === family);
  },
  edition(_: unknown, a: QueryEditionArgs, ctx: ApiContext) {
    const given = [a.edition, a.date].filter((v) => v !== undefined && v !== null);
    if (given.length > 1) throw apiError('BAD_USER_INPUT', 'give `edition` or its deprecated name `date`, not both', { argument: 'edition' });
    return a.date !== undefined && a.date !== null
      ? ctx.edition(
          a.date,
          'date',
          ctx.run(() => familyArg(a.family)),
        )
      : ctx.edition(
          a.edition,
          'edition',
          ctx.run(() => familyArg(a.family)),
        );
  },
  rule(_: unknown, a: QueryRuleArgs, ctx: ApiContext) {
    const e = ctx.edition(
      a.edition,
      'edition',
      ctx.run(() => familyArg(a.family)),
    );
    const n = ctx.run(() => ruleNumberArg(a.number, 'number', e.family));
    return ctx.run(() => ctx.kb.ruleOrThrow(e, n));
  },
  rules(_: unknown, a: QueryRulesArgs, ctx: ApiContext) {
    const e = ctx.edition(
      a.edition,
      'edition',
      ctx.run(() => familyArg(a.family)),
    );
    const first = a.first ?? 100;
    const after = decodeCursor('o', a.after) ?? -1;
    const section = ctx.run(() => scopeArg(a.section));
    const rows = first === 0 ? [] : ctx.kb.rulesPage(e.id, { section, after, limit: first + 1 });
    return connection(rows.slice(0, first), rows.length > first, after >= 0, (r) => encodeCursor('o', r.ord), e);
  },
  search(_: unknown, a: QuerySearchArgs, ctx: ApiContext) {
    const e = ctx.edition(
      a.edition,
      'edition',
      ctx.run(() => familyArg(a.family)),
    );
    const first = a.first ?? 20;
    const start = (decodeCursor('s', a.after) ?? -1) + 1;
    const hits =
      first === 0 ? [] : ctx.run(() => ctx.kb.search(e.id, a.query, { limit: first + 1, offset: start, escape: escapeSnippet, prefix: a.prefix === true }));
    return connection(hits.slice(0, first), hits.length > first, start > 0, (_h, i) => encodeCursor('s', start + i), e);
  },
  glossary(_: unknown, a: QueryGlossaryArgs, ctx: ApiContext) {
    const e = ctx.edition(a.edition);
    return ctx.run(() => ctx.kb.glossaryTermOrThrow(e, a.term.slice(0, 200)));
  },
  glossaryTerms: (_: unknown, a: QueryGlossaryTermsArgs, ctx: ApiContext) => ctx.kb.glossary(ctx.edition(a.edition).id),
  keywords: (_: unknown, a: QueryKeywordsArgs, ctx: ApiContext) => ctx.kb.keywords(ctx.edition(a.edition).id),
  diff(_: unknown, a: QueryDiffArgs, ctx: ApiContext) {
    const from = ctx.edition(
      a.from,
      'from',
      ctx.run(() => familyArg(a.family)),
    );
    const to = ctx.edition(
      a.to,
      'to',
      ctx.run(() => familyArg(a.family)),
    );
    const first = a.first ?? 100;
    const start = (decodeCursor('d', a.after) ?? -1) + 1;
    const section = ctx.run(() => scopeArg(a.section));
    ctx.check();
    const d = ctx.kb.diff(from, to, { ...(section ? { section } : {}), rulesOnly: true, segments: false });
    const all = d.changes;
    const counts = diffCounts(all);
    const page = all.slice(start, start + first);
    return { from, to, counts, ...connection(page, start + first < all.length, start > 0, (_c, i) => encodeCursor('d', start + i), to) };
  },
  history(_: unknown, a: QueryHistoryArgs, ctx: ApiContext) {
    const e = ctx.edition(
      a.edition,
      'edition',
      ctx.run(() => familyArg(a.family)),
    );
    const n = ctx.run(() => ruleNumberArg(a.number, 'number', e.family));
    ctx.check();
    const h = ctx.kb.history(e, n);
    if (h) return { lineageId: h.lineage, family: e.family, steps: h.steps };
    return ctx.run(() => ctx.kb.ruleOrThrow(e, n) && null);
  },
  citations(_: unknown, a: QueryCitationsArgs, ctx: ApiContext) {
    // resolved here first so the answer's cacheability is recorded
    ctx.edition(a.asOf, 'asOf');
    ctx.edition(a.to, 'to');
    return ctx.run(() => checkCitations(ctx.kb, { text: a.text ?? null, numbers: a.numbers ?? null, asOf: a.asOf, to: a.to ?? null }));
  },
  glossaryHistory(_: unknown, a: QueryGlossaryHistoryArgs, ctx: ApiContext) {
    const at = a.edition === undefined || a.edition === null ? null : ctx.edition(a.edition);
    if (at === null) ctx.cache.loose++;
    ctx.check();
    return ctx.kb.glossaryHistory(a.term.slice(0, 200), at);
  },
  lookup: (_: unknown, a: QueryLookupArgs, ctx: ApiContext) => {
    const given = [a.query, a.q].filter((v) => v !== undefined && v !== null);
    if (given.length !== 1)
      throw apiError('BAD_USER_INPUT', given.length === 0 ? '`query` is required' : 'give `query` or its deprecated name `q`, not both', { argument: 'query' });
    const scope = ctx.run(() =>
      ctx.kb.lookupScope(
        a.edition,
        given[0]!,
        ctx.run(() => familyArg(a.family)),
      ),
    );
    ctx.edition(a.edition, 'edition', scope.edition.family);
    return ctx.run(() => ctx.kb.lookup(scope.edition, scope.query));
  },
};

/** A connection of a page; edges and cursors are made only when a query reads them. */
function connection<T>(page: T[], hasNextPage: boolean, hasPreviousPage: boolean, cursorOf: (x: T, i: number) => string, edition: EditionInfo) {
  return {
    get edges() {
      return page.map((node, i) => ({ cursor: cursorOf(node, i), node }));
    },
    nodes: page,
    get pageInfo() {
      const empty = page.length === 0;
      return {
        hasNextPage,
        hasPreviousPage,
        startCursor: empty ? null : cursorOf(page[0]!, 0),
        endCursor: empty ? null : cursorOf(page[page.length - 1]!, page.length - 1),
      };
    },
    edition,
  };
}
