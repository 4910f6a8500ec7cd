import type { Request, Response } from 'express';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import { QueryError } from '../query/QueryError.js';
import { ERROR, IMMUTABLE, SHORT, etagOf, sendCached, type CachedResponse, type ResponseCache } from '../http/ResponseCache.js';
import { layout, type PageContext, type PageSpec } from './layout.js';
import { errorPage } from './pages/errorPage.js';

/** What a route produces: a page (or a bare fragment) and whether every edition in it was pinned. */
export type Produced = { page: PageSpec; exact: boolean; status?: number } | { fragment: string; exact: boolean } | { redirect: string };

/** Answers a route that produces a page: from the response cache, else laid out and cached (pinned pages immutable), a QueryError as an error page. */
export type Respond = (req: Request, res: Response, produce: (kb: KnowledgeBase) => Produced, suggestionPath?: (s: string) => string) => void | Promise<void>;

const HTML = 'text/html; charset=utf-8';

/** The one way every web route answers, over a cache, the query layer and the page context of a request. */
export function pageResponder(cache: ResponseCache | null, kbOf: () => KnowledgeBase, context: (kb: KnowledgeBase, req: Request) => PageContext): Respond {
  return (req, res, produce, suggestionPath = (s) => `/cr/latest/${s}`) => {
    const key = req.originalUrl;
    const hit = cache?.get(key);
    if (hit) return sendCached(req, res, hit);
    let entry: CachedResponse;
    const kb = kbOf();
    try {
      const p = produce(kb);
      if ('redirect' in p) {
        res.set('Cache-Control', SHORT).redirect(302, p.redirect);
        return;
      }
      const c = context(kb, req);
      // encoded once, for its tag and to send (a diff page is hundreds of kilobytes)
      const body = Buffer.from('page' in p ? layout(c, p.page) : p.fragment, 'utf8');
      const status = 'status' in p && p.status !== undefined ? p.status : 200;
      // a page saying the database is behind changes once it is updated: never immutable
      entry = { status, contentType: HTML, body, etag: etagOf(body), cacheControl: status !== 200 ? ERROR : p.exact && !c.stale ? IMMUTABLE : SHORT };
    } catch (e) {
      if (!(e instanceof QueryError)) throw e;
      const body = layout(context(kb, req), errorPage(e, suggestionPath));
      entry = { status: e.code === 'NOT_FOUND' ? 404 : 400, contentType: HTML, body, etag: etagOf(body), cacheControl: ERROR };
    }
    return sendCached(req, res, cache?.set(key, entry) ?? entry);
  };
}
