import { Router, type Request, type Response } from 'express';
import { oneParam, ruleNumberArg } from '../../query/edgeArgs.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { QueryError } from '../../query/QueryError.js';
import { errorResponse } from '../../query/sendError.js';
import { ERROR, SHORT, etagOf, sendCached } from '../../http/ResponseCache.js';
import { editionsFeed, ruleFeed } from './atomFeeds.js';

/** Options of the feeds. */
export interface FeedRouteOptions {
  kb: () => KnowledgeBase;
  /** Base of the links in the feeds; never taken from request headers. */
  publicUrl: () => string;
}

const ATOM = 'application/atom+xml; charset=utf-8';

const send = (req: Request, res: Response, status: number, contentType: string, body: string, cacheControl: string) =>
  sendCached(req, res, { status, contentType, body, etag: etagOf(body), cacheControl });

/** GET /feed.atom (new editions) and GET /feed/{number}.atom?edition=… (the changes to one rule, followed along its lineage), with ETags. */
export function feedRoutes(opts: FeedRouteOptions): Router {
  const router = Router();
  // the editions feed diffs 25 editions: made once per database (and base URL)
  const memo = new WeakMap<KnowledgeBase, { base: string; body: string }>();
  router.get('/feed.atom', (req, res, next) => {
    const kb = opts.kb();
    const base = opts.publicUrl().replace(/\/+$/, '');
    let m = memo.get(kb);
    if (!m || m.base !== base) {
      m = { base, body: editionsFeed(kb, base) };
      memo.set(kb, m);
    }
    send(req, res, 200, ATOM, m.body, SHORT).catch(next);
  });
  router.get('/feed/:file', (req, res, next) => {
    const file = String(req.params.file);
    if (!file.endsWith('.atom')) return next();
    try {
      const number = ruleNumberArg(file.slice(0, -'.atom'.length));
      const body = ruleFeed(opts.kb(), number, opts.publicUrl().replace(/\/+$/, ''), oneParam(req.query, 'edition'));
      send(req, res, 200, ATOM, body, SHORT).catch(next);
    } catch (e) {
      if (!(e instanceof QueryError)) throw e;
      const r = errorResponse(e);
      send(req, res, r.status, r.contentType, r.body, ERROR).catch(next);
    }
  });
  return router;
}
