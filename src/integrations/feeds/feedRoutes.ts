import { Router, type Request, type Response } from 'express';
import { oneParam, ruleNumberArg } from '../../query/edgeArgs.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { QueryError } from '../../query/QueryError.js';
import { errorResponse } from '../../query/sendError.js';
import { ERROR, SHORT, etagOf, sendCached } from '../../http/ResponseCache.js';
import { editionsFeed, policySectionFeed, ruleFeed } from './atomFeeds.js';
import { POLICY_FAMILIES, type PolicyFamilyName } from '../../core/families.js';

/** Options of the feeds. */
export interface FeedRouteOptions {
  kb: () => KnowledgeBase;
  /** Base of the links in the feeds; never taken from request headers. */
  publicUrl: () => string;
}

const ATOM = 'application/atom+xml; charset=utf-8';

const send = (req: Request, res: Response, status: number, contentType: string, body: string, cacheControl: string) =>
  sendCached(req, res, { status, contentType, body, etag: etagOf(body), cacheControl });

/**
 * GET /feed.atom (new editions), /feed/{number}.atom?edition=… (the changes to one rule, followed along its
 * lineage), and the same for the tournament documents: /feed/mtr.atom, /feed/ipg.atom, /feed/jar.atom, /feed/ipg/{section}.atom;
 * with ETags.
 */
export function feedRoutes(opts: FeedRouteOptions): Router {
  const router = Router();
  // an editions feed diffs 25 editions: made once per database (and base URL) and document
  const memo = new WeakMap<KnowledgeBase, { base: string; bodies: Map<string, string> }>();
  const editions = (family: 'cr' | PolicyFamilyName) => (req: Request, res: Response, next: (e?: unknown) => void) => {
    const kb = opts.kb();
    const base = opts.publicUrl().replace(/\/+$/, '');
    let m = memo.get(kb);
    if (!m || m.base !== base) {
      m = { base, bodies: new Map() };
      memo.set(kb, m);
    }
    let body = m.bodies.get(family);
    if (body === undefined) {
      body = editionsFeed(kb, family, base);
      m.bodies.set(family, body);
    }
    send(req, res, 200, ATOM, body, SHORT)?.catch(next);
  };
  const answer = (req: Request, res: Response, next: (e?: unknown) => void, make: () => string) => {
    try {
      send(req, res, 200, ATOM, make(), SHORT)?.catch(next);
    } catch (e) {
      if (!(e instanceof QueryError)) throw e;
      const r = errorResponse(e);
      send(req, res, r.status, r.contentType, r.body, ERROR)?.catch(next);
    }
  };
  router.get('/feed.atom', editions('cr'));
  for (const family of POLICY_FAMILIES) {
    router.get(`/feed/${family}.atom`, editions(family));
    router.get(`/feed/${family}/:file`, (req, res, next) => {
      const file = String(req.params.file);
      if (!file.endsWith('.atom')) return next();
      answer(req, res, next, () => {
        const number = ruleNumberArg(file.slice(0, -'.atom'.length), 'number', family);
        return policySectionFeed(opts.kb(), family, number, opts.publicUrl().replace(/\/+$/, ''), oneParam(req.query, 'edition'));
      });
    });
  }
  router.get('/feed/:file', (req, res, next) => {
    const file = String(req.params.file);
    if (!file.endsWith('.atom')) return next();
    answer(req, res, next, () =>
      ruleFeed(opts.kb(), ruleNumberArg(file.slice(0, -'.atom'.length)), opts.publicUrl().replace(/\/+$/, ''), oneParam(req.query, 'edition')),
    );
  });
  return router;
}
