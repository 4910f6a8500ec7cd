import compression from 'compression';
import cors from 'cors';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { discordRoutes } from '../integrations/discord/discordRoutes.js';
import { downloadRoutes } from '../integrations/download/downloadRoutes.js';
import { feedRoutes } from '../integrations/feeds/feedRoutes.js';
import { openApiRoutes } from '../integrations/openapi/openApiRoutes.js';
import { KnowledgeBase } from '../query/KnowledgeBase.js';
import type { CacheScope } from './ApiContext.js';
import { GraphqlEndpoint, type GraphqlResponse } from './graphqlEndpoint.js';
import { DEFAULT_LIMITS, type ExecutorChoice, type QueryLimits } from './limits.js';
import { ERROR, IMMUTABLE, NO_STORE, SHORT, createResponseCache, etagOf, sendCached, type CachedResponse } from './ResponseCache.js';
import { v1Routes } from './v1Routes.js';
import { Assets } from '../web/Assets.js';
import { graphiqlPage } from '../web/graphiqlPage.js';
import { webRoutes } from '../web/webRoutes.js';

/** Options of buildServer: a database file (opened read-only) or an open database. */
export interface BuildServerOptions {
  dbFile?: string;
  /** An open database (tests): the server reads it, and closes it only if it opened it. */
  db?: ConstructorParameters<typeof KnowledgeBase>[0];
  /** Base URL printed in bot answers and pages (default http://127.0.0.1:4000); request headers never set it. */
  publicUrl?: string | (() => string);
  limits?: Partial<QueryLimits>;
  /** Per-request time limit of GraphQL execution, ms. */
  timeLimitMs?: number;
  /** Which executor runs a GraphQL operation of a given cost (default: yoga's, in the server's thread). */
  executorFor?: ExecutorChoice;
  /** Request body limit, bytes. */
  bodyLimit?: number;
  /** Keep finished GET answers in memory (default true), at most this many bytes (default 8 MB). */
  responseCache?: boolean;
  responseCacheBytes?: number;
  /** Discord application public key (hex): serves /discord/interactions (default $CRKB_DISCORD_PUBLIC_KEY). */
  discordPublicKey?: string;
}

/** What buildServer returns: the app to listen with, and its parts. */
export interface BuiltServer {
  app: Express;
  /** The query layer currently served. */
  kb(): KnowledgeBase;
  /** Loads the database file again (after it was replaced) and serves it from then on; false when it cannot be read. */
  reload(): boolean;
  /** Runs a GraphQL request in-process through the server's pipeline, as a JSON POST (tests, tools). */
  graphql(query: string, variables?: Record<string, unknown>, opts?: { accept?: string; extensions?: Record<string, unknown> }): Promise<GraphqlResponse>;
  /** Closes the database if buildServer opened it. */
  close(): void;
}

/**
 * Builds the express app: the web pages (/, /cr, /search, /diff, /history), GraphQL at /graphql
 * (GraphiQL in a browser; GET for cacheable queries), bot endpoints under /v1, CORS, compression,
 * ETags. Does not listen.
 */
export async function buildServer(opts: BuildServerOptions): Promise<BuiltServer> {
  if (!opts.db && !opts.dbFile) throw new Error('buildServer needs dbFile or db');
  let kb = (opts.db ? new KnowledgeBase(opts.db) : KnowledgeBase.open(opts.dbFile!)).warm();
  const publicUrl = typeof opts.publicUrl === 'function' ? opts.publicUrl : () => (opts.publicUrl as string | undefined) ?? 'http://127.0.0.1:4000';
  const bodyLimit = opts.bodyLimit ?? 64 * 1024;
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const endpoint = new GraphqlEndpoint({ kb: () => kb, limits, timeLimitMs: opts.timeLimitMs ?? 5000, ...(opts.executorFor ? { executorFor: opts.executorFor } : {}) });
  const cache = opts.responseCache === false ? null : createResponseCache(opts.responseCacheBytes);
  const assets = new Assets();
  if (assets.missing.length > 0) console.error(`crkb: browser files missing (${assets.missing.join(', ')}): run "npm run build"`);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const corsAll = cors({ exposedHeaders: ['ETag'], maxAge: 86400 });
  const compress = compression();
  app.use((req: Request, res: Response, next: NextFunction) => {
    // The common case without the cors package: a simple request from anywhere (what the package sends for it).
    if (req.method === 'OPTIONS') return corsAll(req, res, next);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'ETag');
    // Nothing to negotiate for a client that accepts no encoding: skip the compression wrapper.
    if (req.headers['accept-encoding'] === undefined) {
      res.setHeader('Vary', 'Accept-Encoding');
      return next();
    }
    return compress(req, res, next);
  });

  const send = (res: Response, r: GraphqlResponse): void => {
    res.status(r.status).set('Content-Type', r.contentType).send(r.body);
  };
  // what the GraphQL pipeline reads of a request: the media types, nothing that changes an answer otherwise
  const headersOf = (req: Request): Record<string, string> => {
    const h: Record<string, string> = {};
    if (req.headers.accept !== undefined) h.accept = req.headers.accept;
    if (req.headers['content-type'] !== undefined) h['content-type'] = req.headers['content-type'];
    return h;
  };
  // GraphQL over GET: cacheable, with an ETag like the bot endpoints; GraphiQL only for a GET that carries no GraphQL request.
  app.get('/graphql', async (req: Request, res: Response) => {
    res.vary('Accept');
    const q = req.query as Record<string, unknown>;
    const carriesRequest = ['query', 'extensions', 'variables', 'operationName'].some((k) => q[k] !== undefined);
    if (!carriesRequest && req.accepts(['html', 'json']) === 'html') {
      res.set('Cache-Control', SHORT).type('html').send(graphiqlPage(assets));
      return;
    }
    // the answer's media type follows Accept
    const key = `${req.headers.accept ?? ''} ${req.originalUrl}`;
    const hit = cache?.get(key);
    if (hit) return sendCached(req, res, hit);
    const scope: CacheScope = { exact: 0, loose: 0 };
    const r = await endpoint.fetch(req.originalUrl, { method: 'GET', headers: headersOf(req) }, scope);
    if (r.cache === 'transient') {
      res.set('Cache-Control', NO_STORE);
      return send(res, r);
    }
    const entry: CachedResponse = {
      status: r.status,
      contentType: r.contentType,
      body: r.body,
      // the media type is part of the representation: application/json and graphql-response+json differ
      etag: etagOf(`${r.contentType}\n${r.body}`),
      cacheControl: r.cache === 'error' ? ERROR : scope.exact > 0 && scope.loose === 0 ? IMMUTABLE : SHORT,
    };
    cache?.set(key, entry);
    sendCached(req, res, entry);
  });
  app.post('/graphql', express.raw({ limit: bodyLimit, type: () => true }), async (req: Request, res: Response) => {
    // a string body: yoga's fetch implementation reads a Buffer through a stream (some 200 µs more a request); JSON is UTF-8
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : undefined;
    send(res, await endpoint.fetch(req.originalUrl, { method: 'POST', headers: headersOf(req), ...(body ? { body } : {}) }));
  });
  // the API first (the most requests), then the other edges, each router over its own paths
  app.use('/assets', assets.router());
  app.use('/v1', v1Routes({ kb: () => kb, cache, publicUrl }));
  const discordKey = opts.discordPublicKey ?? process.env.CRKB_DISCORD_PUBLIC_KEY;
  if (discordKey) app.use('/discord', discordRoutes({ kb: () => kb, publicKey: discordKey, publicUrl }));
  app.use(feedRoutes({ kb: () => kb, publicUrl }));
  app.use(downloadRoutes({ kb: () => kb }));
  app.use(openApiRoutes({ publicUrl }));
  app.use(webRoutes({ kb: () => kb, cache, publicUrl, assets }));


  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: 'no such page or endpoint; see / (the web app), /graphql and /v1/lookup' } });
  });
  // Last resort: never a stack trace to the client; a malformed request is a 4xx, not a 500.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { status?: number; statusCode?: number; type?: string; message?: string };
    const status = err instanceof URIError ? 400 : (e.status ?? e.statusCode ?? 500);
    if (res.headersSent) return;
    if (status >= 400 && status < 500) {
      const message =
        e.type === 'entity.too.large' ? `request body larger than ${bodyLimit} bytes` : e.type === 'entity.parse.failed' ? 'malformed JSON body' : err instanceof URIError ? 'malformed URL encoding' : 'bad request';
      res.status(status).json({ errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] });
      return;
    }
    console.error('crkb server error:', err);
    res.status(500).json({ errors: [{ message: 'internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
  });

  return {
    app,
    kb: () => kb,
    reload() {
      if (!opts.dbFile) return false;
      let next: KnowledgeBase;
      try {
        next = KnowledgeBase.open(opts.dbFile).warm();
      } catch (e) {
        console.error(`crkb: cannot load ${opts.dbFile}: ${(e as Error).message}; still serving the previous database`);
        return false;
      }
      const old = kb;
      kb = next;
      cache?.clear();
      old.close();
      return true;
    },
    graphql: (query, variables, o) =>
      endpoint.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: o?.accept ?? 'application/json' },
        body: JSON.stringify({ query, ...(variables ? { variables } : {}), ...(o?.extensions ? { extensions: o.extensions } : {}) }),
      }),
    close() {
      if (!opts.db) kb.close();
    },
  };
}
