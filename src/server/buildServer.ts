import { createHash } from 'node:crypto';
import compression from 'compression';
import cors from 'cors';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { discordRoutes } from '../integrations/discord/discordRoutes.js';
import { downloadRoutes } from '../integrations/download/downloadRoutes.js';
import { feedRoutes } from '../integrations/feeds/feedRoutes.js';
import { openApiRoutes } from '../integrations/openapi/openApiRoutes.js';
import { KnowledgeBase } from '../query/KnowledgeBase.js';
import type { CacheScope } from './ApiContext.js';
import { answerFirst } from './answerFirst.js';
import { GraphqlEndpoint, type GraphqlResponse } from './graphqlEndpoint.js';
import { forwardHeavy, graphqlOnPool } from './forwardHeavy.js';
import { smallPage } from './smallPage.js';
import { HeavyPool, type HeavyKind, type KindLimit } from './HeavyPool.js';
import type { WorkerServerOptions } from './heavyTask.js';
import { DEFAULT_LIMITS, type ExecutorChoice } from './limits.js';
import { ERROR, IMMUTABLE, NO_STORE, SHORT, createResponseCache, etagOf, sendCached, type CachedResponse } from '../http/ResponseCache.js';
import { sendSurfaceError } from './errors.js';
import { v1Routes } from './v1Routes.js';
import { log } from './logger.js';
import { metrics, type ProcessMetrics } from './metrics.js';
import { probes } from './probes.js';
import { Assets } from '../web/Assets.js';
import { graphiqlPage } from '../web/graphiqlPage.js';
import { layout } from '../web/layout.js';
import { errorPage } from '../web/pages/errorPage.js';
import { webRoutes } from '../web/webRoutes.js';
import { PAGE_ENTRIES } from '../web/pages/diffPage.js';
import { policyRoutes } from '../web/policyRoutes.js';

/**
 * Bytes of diffs a server keeps (KnowledgeBase's diff cache, per thread that diffs: in practice the heavy one): every
 * neighbour transition of the corpus, about 18 MB of heap for 110, so a diff page between neighbours is rendered from
 * a kept diff rather than aligned and word-diffed again (about 4 ms instead of 14, median, and 30-300 ms for the large
 * ones). A server of hundreds of editions keeps the latest asked.
 */
const SERVER_DIFF_CACHE_BYTES = 24 * 1024 * 1024;

/**
 * Bytes of texts the serving thread keeps (KnowledgeBase's text cache) when a heavy thread makes the diffs: every
 * text of the corpus (about 11 MB by the cache's count), so pages that sweep many rules' texts (histories) do not
 * read them again from SQLite and churn the heap. It fills only as pages read texts (0.5 MB at idle); the heavy
 * thread, which reads most texts while diffing in the background, keeps the default 8 MB.
 */
const SERVING_TEXT_CACHE_BYTES = 16 * 1024 * 1024;

/** Options of buildServer: a database file (verified, then opened read-only) or an open database. */
export interface BuildServerOptions extends WorkerServerOptions {
  /** A database file: verified first (a file crkb will not serve throws DbRefused), held open for /download. */
  dbFile?: string;
  /** An open database (tests): the server reads it, and closes it only if it opened it. */
  db?: ConstructorParameters<typeof KnowledgeBase>[0];
  /** A serialized database (a heavy worker thread's copy of an open one). */
  dbImage?: Uint8Array;
  /** sha256 of `db`'s file when the caller knows it (a heavy worker thread's), instead of hashing an image of it. */
  dbSha256?: string;
  /** Build the search indexes at start (default true; a heavy worker thread never searches). */
  warmSearch?: boolean;
  /** Build the newest editions' keyword lists at start (default true; a heavy worker thread answers lookups only in costly GraphQL). */
  warmKeywords?: boolean;
  /** Base URL printed in bot answers and pages (default http://127.0.0.1:4000); request headers never set it. */
  publicUrl?: string | (() => string);
  /** Which executor runs a GraphQL operation of a given cost (default: yoga's, in the server's thread). */
  executorFor?: ExecutorChoice;
  /** Keep finished GET answers in memory (default true), at most this many bytes (default 8 MB). */
  responseCache?: boolean;
  responseCacheBytes?: number;
  /** Worker threads for costly requests (HeavyPool); 0 answers them on the event loop. Default 1 with dbFile, 0 with db. */
  heavyThreads?: number;
  /** Admission and time budget per kind of costly request. */
  heavyLimits?: Partial<Record<HeavyKind, Partial<KindLimit>>>;
  /** Downloads of /download/crkb.db sent at once (default 16); more get 503 with Retry-After. */
  maxDownloads?: number;
  /** /metrics of the whole server (a supervised process asks its supervisor), or null for this process's. */
  wholeMetrics?: () => Promise<string | null>;
}

/** What buildServer returns: the app to listen with, and its parts. */
export interface BuiltServer {
  app: Express;
  /** The query layer served. */
  kb(): KnowledgeBase;
  /** sha256 (hex) of the database served: the verified file's bytes, or an in-memory database's image. */
  dbSha256: string;
  /** Runs a GraphQL request in-process through the server's pipeline, as a JSON POST (tests, tools). */
  graphql(
    query: string,
    variables?: Record<string, unknown>,
    opts?: { accept?: string; extensions?: Record<string, unknown>; operationName?: string; scope?: CacheScope },
  ): Promise<GraphqlResponse>;
  /** This process's metrics as prom-client JSON (the supervisor aggregates them). */
  metricsJson(): Promise<ProcessMetrics>;
  /** From now on /readyz answers 503 (the process drains: a load balancer takes it out). */
  unready(): void;
  /** Closes the database if buildServer opened it, and stops the heavy worker threads. */
  close(): Promise<void>;
}

/**
 * Middleware run one after the other as one (an error or the last one's next goes on to express's next):
 * what every request crosses costs one walk of express's router, not one per middleware.
 */
function inSequence(steps: Array<(req: Request, res: Response, next: NextFunction) => void>): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined || i === steps.length) return next(err);
      steps[i++]!(req, res, step);
    };
    step();
  };
}

/**
 * Builds the express app: the web pages (/, /cr, /search, /diff, /history), GraphQL at /graphql
 * (GraphiQL in a browser; GET for cacheable queries), bot endpoints under /v1, CORS, compression,
 * ETags. Does not listen.
 */
export async function buildServer(opts: BuildServerOptions): Promise<BuiltServer> {
  if (!opts.db && !opts.dbFile && !opts.dbImage) throw new Error('buildServer needs dbFile, db or dbImage');
  const warm = { search: opts.warmSearch !== false, keywords: opts.warmKeywords !== false };
  const threads = opts.heavyThreads ?? (opts.dbFile ? 1 : 0);
  const kbOpts = { diffCacheBytes: opts.diffCacheBytes ?? SERVER_DIFF_CACHE_BYTES, ...(threads > 0 ? { textCacheBytes: SERVING_TEXT_CACHE_BYTES } : {}) };
  const kb = opts.db
    ? new KnowledgeBase(opts.db, kbOpts)
    : opts.dbImage
      ? KnowledgeBase.openImage(opts.dbImage, kbOpts)
      : KnowledgeBase.openVerified(opts.dbFile!, kbOpts);
  kb.known = opts.knownEditions ?? [];
  const dbSha256 = kb.file?.sha256 ?? opts.dbSha256 ?? createHash('sha256').update(kb.db.serialize()).digest('hex');
  const publicUrl = typeof opts.publicUrl === 'function' ? opts.publicUrl : () => (opts.publicUrl as string | undefined) ?? 'http://127.0.0.1:4000';
  const bodyLimit = opts.bodyLimit ?? 64 * 1024;
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const cache = opts.responseCache === false ? null : createResponseCache(opts.responseCacheBytes);
  const assets = new Assets();
  if (assets.missing.length > 0) log.error(`browser files missing (${assets.missing.join(', ')}): run "npm run build"`);
  const server = {
    limits,
    timeLimitMs: opts.timeLimitMs ?? 5000,
    bodyLimit,
    ...(opts.discordPublicKey ? { discordPublicKey: opts.discordPublicKey } : {}),
    ...(opts.knownEditions ? { knownEditions: opts.knownEditions } : {}),
    ...(opts.diffCacheBytes !== undefined ? { diffCacheBytes: opts.diffCacheBytes } : {}),
    ...(opts.diffsInBackground ? { diffsInBackground: true } : {}),
  };
  // the worker thread loads its copy while this thread warms its own
  const pool =
    threads > 0
      ? new HeavyPool({
          threads,
          setup: {
            ...(kb.file
              ? { dbHeld: { fd: kb.file.fd, size: kb.file.size, mtimeMs: kb.file.mtimeMs, sha256: kb.file.sha256 } }
              : { dbImage: kb.db.serialize() }),
            server,
          },
          ...(opts.heavyLimits ? { limits: opts.heavyLimits } : {}),
        })
      : null;
  kb.warm(warm);
  // the thread that answers diff pages (the heavy one, or this one without it) makes the CR neighbours' diffs while idle
  if (opts.diffsInBackground && threads === 0) void kb.diffsInBackground('cr', { changes: [0, PAGE_ENTRIES], glossary: [0, PAGE_ENTRIES] });
  await pool?.ready();
  const executorFor = opts.executorFor ?? (pool ? graphqlOnPool(pool, publicUrl) : undefined);
  const endpoint = new GraphqlEndpoint({ kb: () => kb, limits, timeLimitMs: opts.timeLimitMs ?? 5000, ...(executorFor ? { executorFor } : {}) });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  let ready = true;
  const observed = metrics({
    dbSha256,
    dbMtimeMs: kb.file?.mtimeMs ?? null,
    heavyLoad: pool ? (k) => pool.load(k) : null,
    ...(opts.wholeMetrics ? { whole: opts.wholeMetrics } : {}),
  });
  // one timing of each answer: the log line and the latency histogram
  const probe = probes({ dbSha256, ready: () => ready, observe: observed.observe });
  // (the probes in its route: the answer is counted under the route /metrics, and has no CORS headers)
  app.get('/metrics', probe, observed.endpoint);
  // (X-Source-SHA256: a published file's sha256, /v1/files; X-Crkb-Db: the database's)
  const exposed = ['ETag', 'X-Source-SHA256', 'X-Crkb-Db', 'X-Request-Id'];
  const corsAll = cors({ exposedHeaders: exposed, maxAge: 86400 });
  const exposedHeader = exposed.join(',');
  const compress = compression();
  const corsAndCompression = (req: Request, res: Response, next: NextFunction): void => {
    // express 5's req.query parses the query string again on every read (a /v1 answer reads it five or six times): once a request
    Object.defineProperty(req, 'query', { value: req.query, writable: true, enumerable: true, configurable: true });
    // The common case without the cors package: a simple request from anywhere (what the package sends for it).
    if (req.method === 'OPTIONS') return corsAll(req, res, next);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', exposedHeader);
    // Nothing to negotiate for a client that accepts no encoding: skip the compression wrapper.
    if (req.headers['accept-encoding'] === undefined) {
      res.setHeader('Vary', 'Accept-Encoding');
      return next();
    }
    compress(req, res, next);
  };
  // a page for people saying why their request was not answered
  const page = (title: string, message: string) => layout({ assets, publicUrl: publicUrl() }, errorPage({ title, message }));
  const heavy = pool ? forwardHeavy({ pool, cache, publicUrl, htmlError: page, small: smallPage(() => kb) }) : null;
  // what every request goes through first, as one express layer: each layer is a walk of express's router
  const shared = inSequence(heavy ? [probe, corsAndCompression, heavy] : [probe, corsAndCompression]);
  app.use(shared);

  const send = (res: Response, r: GraphqlResponse): void => {
    res.status(r.status).set('Content-Type', r.contentType).send(r.body);
  };
  // what the GraphQL pipeline reads of a request: the media types, nothing that changes an answer otherwise
  const headersOf = (req: Request): { accept?: string; 'content-type'?: string } => ({
    ...(req.headers.accept !== undefined ? { accept: req.headers.accept } : {}),
    ...(req.headers['content-type'] !== undefined ? { 'content-type': req.headers['content-type'] } : {}),
  });
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
    return sendCached(req, res, (r.status < 500 ? cache?.set(key, entry) : undefined) ?? entry);
  });
  app.post('/graphql', express.raw({ limit: bodyLimit, type: () => true }), async (req: Request, res: Response) => {
    // a string body: yoga's fetch implementation reads a Buffer through a stream (some 200 µs more a request); JSON is UTF-8
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : undefined;
    send(res, await endpoint.fetch(req.originalUrl, { method: 'POST', headers: headersOf(req), ...(body ? { body } : {}) }));
  });
  // the API first (the most requests), then the other edges, each router over its own paths
  app.use('/assets', assets.router());
  const v1 = v1Routes({ kb: () => kb, cache, publicUrl });
  app.use('/v1', v1);
  const discordKey = opts.discordPublicKey ?? process.env.CRKB_DISCORD_PUBLIC_KEY;
  if (discordKey) app.use('/discord', discordRoutes({ kb: () => kb, publicKey: discordKey, publicUrl }));
  app.use(feedRoutes({ kb: () => kb, publicUrl }));
  app.use(downloadRoutes({ kb: () => kb, maxConcurrent: opts.maxDownloads }));
  app.use(openApiRoutes({ publicUrl }));
  app.use(webRoutes({ kb: () => kb, cache, publicUrl, assets, known: kb.known }));
  app.use(policyRoutes({ kb: () => kb, cache, publicUrl, assets }));

  const notFound = (req: Request, res: Response): void => {
    sendSurfaceError(req, res, { status: 404, code: 'NOT_FOUND', message: 'no such page or endpoint; see / (the web app), /graphql and /v1/lookup' }, page);
  };
  app.use(notFound);
  // Last resort: never a stack trace to the client; a malformed request is a 4xx, not a 500; in the shape of its route's surface.
  const lastResort = (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const e = err as { status?: number; statusCode?: number; type?: string; message?: string; limit?: number };
    const status = err instanceof URIError ? 400 : (e.status ?? e.statusCode ?? 500);
    if (res.headersSent) return;
    if (status >= 400 && status < 500) {
      const message =
        e.type === 'entity.too.large'
          ? `request body larger than ${e.limit ?? bodyLimit} bytes`
          : e.type === 'entity.parse.failed'
            ? 'malformed JSON body'
            : err instanceof URIError
              ? 'malformed URL encoding'
              : 'bad request';
      sendSurfaceError(req, res, { status, code: 'BAD_USER_INPUT', message }, page);
      return;
    }
    log.error({ err, id: res.getHeader('X-Request-Id'), url: req.originalUrl.slice(0, 500) }, 'server error');
    sendSurfaceError(req, res, { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'internal server error' }, page);
  };
  app.use(lastResort);
  // the busiest routes (the bot endpoints' lookups and searches, GraphQL POST) skip the router walk to them
  answerFirst(app, {
    shared,
    lastResort,
    notFound,
    routes: [
      { method: 'GET', mount: '/v1', router: v1, paths: ['/lookup', '/rules/:number', '/search'] },
      { method: 'POST', mount: '', router: app.router, paths: ['/graphql'] },
    ],
  });

  return {
    app,
    kb: () => kb,
    dbSha256,
    metricsJson: observed.json,
    graphql: (query, variables, o) =>
      endpoint.fetch(
        '/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: o?.accept ?? 'application/json' },
          body: JSON.stringify({
            query,
            ...(variables ? { variables } : {}),
            ...(o?.operationName ? { operationName: o.operationName } : {}),
            ...(o?.extensions ? { extensions: o.extensions } : {}),
          }),
        },
        o?.scope,
      ),
    unready: () => void (ready = false),
    async close() {
      ready = false;
      await pool?.close();
      if (!opts.db) kb.close();
    },
  };
}
