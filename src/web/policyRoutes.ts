import { Router, type Request, type Response } from 'express';
import type { Family } from '../core/records.js';
import { POLICY_FAMILIES } from '../core/families.js';
import { oneParam, ruleNumberArg } from '../query/edgeArgs.js';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import { QueryError } from '../query/QueryError.js';
import { pageResponder, type Produced } from './pageResponder.js';
import { policyDiffPage, policyHistoryPage, policyTocPage, policyUnitPage, unitPath } from './pages/policyPages.js';
import type { WebOptions } from './webRoutes.js';

const param = (req: Request, name: string): string | undefined => oneParam(req.query, name);

/**
 * The tournament documents in the web app, one set of routes per family (/mtr, /ipg, /jar): an edition's
 * contents (/ipg/latest), a unit (/ipg/2021-02-05/2.1), what changed between two editions
 * (/ipg/diff/2020-09-25/2021-02-05) and a unit's history (/ipg/history/2.1?edition=…).
 */
export function policyRoutes(opts: WebOptions): Router {
  const { cache } = opts;
  const router = Router();

  // no stale-data notice: it speaks of the CR's editions
  const base = pageResponder(cache, opts.kb, () => ({ assets: opts.assets, publicUrl: opts.publicUrl() }));
  const respond = (req: Request, res: Response, produce: (kb: KnowledgeBase) => Produced) => base(req, res, produce, (s) => s);

  for (const family of POLICY_FAMILIES as readonly Family[]) {
    router.get(`/${family}`, (req, res) => respond(req, res, () => ({ redirect: `/${family}/${encodeURIComponent(param(req, 'edition') ?? 'latest')}` })));
    router.get(`/${family}/diff`, (req, res) =>
      respond(req, res, (kb) => {
        const to = kb.resolveEdition(param(req, 'to') ?? 'latest', family, 'to').edition;
        const chain = kb.officialEditions(family);
        const from = param(req, 'from')
          ? kb.resolveEdition(param(req, 'from'), family, 'from').edition
          : (chain[chain.findIndex((e) => e.id === to.id) - 1] ?? to);
        return { redirect: `/${family}/diff/${from.effectiveDate}/${to.effectiveDate}` };
      }),
    );
    router.get(`/${family}/diff/:from/:to`, (req, res) =>
      respond(req, res, (kb) => {
        const from = kb.resolveEdition(String(req.params.from), family, 'from');
        const to = kb.resolveEdition(String(req.params.to), family, 'to');
        const d = kb.diff(from.edition, to.edition, { rulesOnly: true });
        return { page: policyDiffPage(kb, from.edition, to.edition, d), exact: from.exact && to.exact };
      }),
    );
    router.get(`/${family}/history/:number`, (req, res) =>
      respond(req, res, (kb) => {
        const edition = kb.resolveEdition(param(req, 'edition') || 'latest', family).edition;
        const n = ruleNumberArg(String(req.params.number), 'number', family);
        const h = kb.history(edition, n);
        if (!h)
          throw new QueryError('NOT_FOUND', `no ${family.toUpperCase()} ${n} in the ${edition.effectiveDate} edition`, { edition: edition.effectiveDate });
        return { page: policyHistoryPage(edition, n, h), exact: false };
      }),
    );
    router.get(`/${family}/:edition`, (req, res) =>
      respond(req, res, (kb) => {
        const arg = String(req.params.edition);
        const ed = kb.resolveEdition(arg, family);
        return { page: policyTocPage(kb, ed.edition, arg), exact: ed.exact };
      }),
    );
    router.get(`/${family}/:edition/:number`, (req, res) =>
      respond(req, res, (kb) => {
        const arg = String(req.params.edition);
        const ed = kb.resolveEdition(arg, family);
        const n = ruleNumberArg(String(req.params.number), 'number', family);
        if (n !== String(req.params.number)) return { redirect: unitPath(family, arg, n) };
        return { page: policyUnitPage(kb, ed.edition, arg, kb.ruleOrThrow(ed.edition, n)), exact: ed.exact };
      }),
    );
  }
  return router;
}
