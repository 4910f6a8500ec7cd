import { Router, type Request } from 'express';
import { numberLevel } from '../core/ruleNumber.js';
import { currentPlace, formerNumber } from '../query/currentPlace.js';
import { countArg, oneParam, ruleNumberArg, scopeArg } from '../query/edgeArgs.js';
import { MAX_SEARCH_LENGTH, MAX_SEARCH_OFFSET, type ChangeKind, type KnowledgeBase } from '../query/KnowledgeBase.js';
import { QueryError } from '../query/QueryError.js';
import { staleData, type KnownEdition } from '../query/knownEditions.js';
import type { ResponseCache } from '../http/ResponseCache.js';
import type { Assets } from './Assets.js';
import { DIFF_KINDS, diffPage, diffQuery, type DiffView } from './pages/diffPage.js';
import { diffIndexPage } from './pages/diffIndexPage.js';
import { pageResponder } from './pageResponder.js';
import { formerNumberPage } from './pages/formerNumber.js';
import { glossaryPage } from './pages/glossaryPage.js';
import { historyPage } from './pages/historyPage.js';
import { ruleEditionsPage, rulePage } from './pages/rulePage.js';
import { searchPage, searchResults } from './pages/searchPage.js';
import { tocPage } from './pages/tocPage.js';
import { rulePath } from './RuleLinker.js';

/** Options of the web pages. */
export interface WebOptions {
  /** The query layer (a function: the server may swap in a new database). */
  kb: () => KnowledgeBase;
  cache: ResponseCache | null;
  /** Base of canonical URLs; never taken from request headers. */
  publicUrl: () => string;
  assets: Assets;
  /** Editions the sources manifest knows (stored or not): pages say when the database lacks newer ones. */
  known?: readonly KnownEdition[];
}

const param = (req: Request, name: string): string | undefined => oneParam(req.query, name);

function diffView(req: Request): DiffView {
  const section = scopeArg(param(req, 'section'));
  const raw = (req.query as Record<string, unknown>).kind;
  const list = (raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]).flatMap((k) => String(k).split(','));
  const bad = list.filter((k) => !DIFF_KINDS.includes(k as ChangeKind));
  if (bad.length) throw new QueryError('BAD_INPUT', `kind must be one of ${DIFF_KINDS.join(', ')}, not "${bad[0]!.slice(0, 20)}"`, { argument: 'kind' });
  // every kind checked is no filter at all
  const kinds = list.length === DIFF_KINDS.length ? [] : [...new Set(list as ChangeKind[])];
  const view = param(req, 'view') ?? 'inline';
  if (view !== 'inline' && view !== 'side') throw new QueryError('BAD_INPUT', `view must be inline or side, not "${view.slice(0, 20)}"`, { argument: 'view' });
  const page = countArg(param(req, 'page'), { argument: 'page', min: 1, max: 1_000_000, fallback: 1 });
  return { section, kinds, view, page };
}

/**
 * The web app for people: server-rendered pages over the query layer, cached like the API
 * (edition-pinned pages immutable, `latest` ones short). Routes: /, /cr, /cr/:edition,
 * /cr/:edition/glossary, /cr/:edition/:number, /search, /diff, /diff/:from/:to, /history/:number.
 */
export function webRoutes(opts: WebOptions): Router {
  const { cache } = opts;
  const router = Router();
  const today = () => new Date().toISOString().slice(0, 10);
  const ctx = (kb: KnowledgeBase, asked?: string) => ({
    assets: opts.assets,
    publicUrl: opts.publicUrl(),
    stale: staleData(kb, opts.known ?? [], today(), asked),
  });

  // the date a page asked for (/cr/2026-01-01, ?edition=…, /diff/…/2026-01-01): said when a newer known edition was in force
  const askedOf = (req: Request) =>
    [req.params.edition, req.params.to, (req.query as Record<string, unknown>).edition].find(
      (x): x is string => typeof x === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(x),
    );
  const respond = pageResponder(cache, opts.kb, (kb, req) => ctx(kb, askedOf(req)));

  router.get('/', (req, res) =>
    respond(req, res, (kb) => {
      const ed = kb.resolveEdition('latest');
      return { page: tocPage(kb, ed.edition, 'latest', true), exact: false };
    }),
  );

  router.get('/cr', (req, res) =>
    respond(req, res, (kb) => {
      const edition = param(req, 'edition');
      const number = param(req, 'number');
      if (edition !== undefined) kb.resolveEdition(edition);
      if (number !== undefined && number.trim() !== '') {
        const n = ruleNumberArg(number);
        if (edition === undefined) return { page: ruleEditionsPage(kb, n), exact: false };
        return { redirect: rulePath(edition, n) };
      }
      return { redirect: `/cr/${encodeURIComponent(edition ?? 'latest')}` };
    }),
  );

  router.get('/cr/:edition', (req, res) =>
    respond(req, res, (kb) => {
      const arg = String(req.params.edition);
      const ed = kb.resolveEdition(arg);
      return { page: tocPage(kb, ed.edition, arg, false), exact: ed.exact };
    }),
  );

  router.get('/cr/:edition/glossary', (req, res) =>
    respond(req, res, (kb) => {
      const arg = String(req.params.edition);
      const ed = kb.resolveEdition(arg);
      return { page: glossaryPage(kb, ed.edition, arg), exact: ed.exact };
    }),
  );

  router.get('/cr/:edition/:number', (req, res) => {
    const arg = String(req.params.edition);
    return respond(
      req,
      res,
      (kb) => {
        const ed = kb.resolveEdition(arg);
        const n = ruleNumberArg(String(req.params.number));
        if (numberLevel(n) === 'part') return { redirect: rulePath(arg, n) };
        const rule = kb.rule(ed.edition.id, n);
        if (rule) return { page: rulePage(kb, ed.edition, arg, rule), exact: ed.exact };
        // a number the edition lacks: what the lineage says first, else the string neighbours (ruleOrThrow)
        const former = formerNumber(kb, n, ed.edition);
        if (former) return { page: formerNumberPage(kb, ed.edition, arg, former), exact: ed.exact, status: 404 };
        return { page: rulePage(kb, ed.edition, arg, kb.ruleOrThrow(ed.edition, n)), exact: ed.exact };
      },
      (s) => `/cr/${encodeURIComponent(arg)}/${s}`,
    );
  });

  router.get('/search', (req, res) =>
    respond(req, res, (kb) => {
      const q = param(req, 'q') ?? '';
      const arg = param(req, 'edition') || 'latest';
      const ed = kb.resolveEdition(arg);
      const offset = countArg(param(req, 'offset'), { argument: 'offset', min: 0, max: MAX_SEARCH_OFFSET, fallback: 0 });
      if (q.length > MAX_SEARCH_LENGTH) throw new QueryError('BAD_INPUT', `the search text is longer than ${MAX_SEARCH_LENGTH} characters`, { argument: 'q' });
      // the live fragment: what search-as-you-type fetches, the last word read as a prefix
      if (param(req, 'live') === '1') return { fragment: searchResults(kb, ed.edition, arg, q, { offset, prefix: true }).value, exact: ed.exact };
      return { page: searchPage(kb, ed.edition, arg, q, offset, param(req, 'verbatim') === '1'), exact: ed.exact };
    }),
  );

  router.get('/diff', (req, res) =>
    respond(req, res, (kb) => {
      const toArg = param(req, 'to');
      const fromArg = param(req, 'from');
      // no editions asked: the index of every release
      if (toArg === undefined && fromArg === undefined) return { page: diffIndexPage(kb), exact: false };
      const to = kb.resolveEdition(toArg ?? 'latest', 'cr', 'to').edition;
      const official = kb.officialEditions('cr');
      const from = fromArg ? kb.resolveEdition(fromArg, 'cr', 'from').edition : (official[official.findIndex((e) => e.id === to.id) - 1] ?? to);
      // the filters go along (section, kinds, view)
      return { redirect: `/diff/${from.effectiveDate}/${to.effectiveDate}${diffQuery(diffView(req))}` };
    }),
  );

  router.get('/diff/:from/:to', (req, res) =>
    respond(req, res, (kb) => {
      const fromArg = String(req.params.from);
      const toArg = String(req.params.to);
      const from = kb.resolveEdition(fromArg, 'cr', 'from');
      const to = kb.resolveEdition(toArg, 'cr', 'to');
      return { page: diffPage(kb, from.edition, to.edition, fromArg, toArg, diffView(req)), exact: from.exact && to.exact };
    }),
  );

  router.get('/history/:number', (req, res) =>
    respond(
      req,
      res,
      (kb) => {
        const n = ruleNumberArg(String(req.params.number));
        const { edition } = currentPlace(kb, n, kb.resolveEdition(param(req, 'edition') || 'latest').edition);
        const h = kb.history(edition, n);
        if (!h) throw new QueryError('NOT_FOUND', `no history of rule ${n} in the ${edition.effectiveDate} edition`, { edition: edition.effectiveDate });
        // a history lists every edition: a newly stored one changes it
        return { page: historyPage(kb, edition, n, h), exact: false };
      },
      (s) => `/history/${s}`,
    ),
  );

  return router;
}
