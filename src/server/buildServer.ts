import compression from 'compression';
import cors from 'cors';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { openReadOnlyDb, type Db } from '../db/openDb.js';
import { Reader } from '../db/Reader.js';
import type { CacheScope } from './ApiContext.js';
import { createApiContext } from './ApiContext.js';
import { createApiSchema, createApiYoga } from './createApiYoga.js';
import { FastGraphql, acceptsPlainJson, plainParams, type GraphqlParams } from './FastGraphql.js';
import { loadEngine, type Engine } from './engine.js';
import { jsonBody } from './jsonBody.js';
import { limitsRule, type QueryLimits } from './limits.js';
import { ERROR, IMMUTABLE, ResponseCache, SHORT, etagOf, type CachedResponse } from './ResponseCache.js';
import { sendCached, v1Routes } from './v1Routes.js';

/** GraphQL parameters of a GET query string, or null when they are not plain. */
function getParams(q: Request['query']): GraphqlParams | null {
  if (typeof q.query !== 'string') return null;
  let variables: unknown = undefined;
  if (q.variables !== undefined) {
    if (typeof q.variables !== 'string') return null;
    try {
      variables = JSON.parse(q.variables);
    } catch {
      return null;
    }
  }
  const extra = Object.keys(q).some((k) => k !== 'query' && k !== 'variables' && k !== 'operationName');
  return extra ? null : plainParams({ query: q.query, variables, operationName: q.operationName });
}

/** Options of buildServer: a database file (opened read-only) or an open database. */
export interface BuildServerOptions {
  dbFile?: string;
  db?: Db;
  /** The diff/history engine; loaded from src/engine when omitted. */
  engine?: Engine;
  /** Base URL printed in bot answers; default: from each request's Host. */
  publicUrl?: string;
  limits?: Partial<QueryLimits>;
  /** Per-request time limit of GraphQL execution, ms. */
  timeLimitMs?: number;
  /** Request body limit, bytes. */
  bodyLimit?: number;
  /** Keep finished GET answers in memory (default true). */
  responseCache?: boolean;
}

/** What buildServer returns: the app to listen with, and its parts. */
export interface BuiltServer {
  app: Express;
  yoga: ReturnType<typeof createApiYoga>;
  reader: Reader;
  db: Db;
  /** Closes the database if buildServer opened it. */
  close(): void;
}

/** Default limits of a GraphQL operation. */
export const DEFAULT_LIMITS: QueryLimits = { maxDepth: 10, maxCost: 100_000 };

/**
 * Builds the express app: GraphQL at /graphql (GraphiQL in a browser, GET for
 * cacheable queries), bot endpoints under /v1, CORS, compression, ETags. Does
 * not listen.
 */
export async function buildServer(opts: BuildServerOptions): Promise<BuiltServer> {
  if (!opts.db && !opts.dbFile) throw new Error('buildServer needs dbFile or db');
  const db = opts.db ?? openReadOnlyDb(opts.dbFile!);
  // the server never writes: editions are kept in memory
  const reader = new Reader(db, { memo: true });
  const engine = opts.engine ?? (await loadEngine());
  const bodyLimit = opts.bodyLimit ?? 64 * 1024;
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const timeLimitMs = opts.timeLimitMs ?? 5000;
  const schema = createApiSchema();
  const yoga = createApiYoga({ reader, engine, limits, timeLimitMs, schema });
  const fast = new FastGraphql(schema, [limitsRule(limits)], (scope) => createApiContext(reader, engine, timeLimitMs, scope));
  const JSON_TYPE = 'application/json; charset=utf-8';
  const cache = opts.responseCache === false ? null : new ResponseCache();

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
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

  app.get('/', (_req, res) => {
    res.json({
      graphql: '/graphql',
      lookup: '/v1/lookup?q=trample&format=text',
      rule: '/v1/rules/702.19b?edition=latest&format=json',
    });
  });
  app.use('/v1', v1Routes({ reader, cache, publicUrl: opts.publicUrl }));

  // GraphQL over GET: answered through yoga, then cached with an ETag like the bot endpoints.
  app.get('/graphql', async (req: Request, res: Response, next: NextFunction) => {
    if (typeof req.query.query !== 'string') return next();
    const accept = req.get('accept') ?? 'application/json';
    const key = `${accept}\u0000${req.originalUrl}`;
    const hit = cache?.get(key);
    if (hit) return sendCached(req, res, hit);
    const scope: CacheScope = { exact: 0, loose: 0 };
    const params = acceptsPlainJson(req.get('accept')) ? getParams(req.query) : null;
    const quick = params ? await fast.run(params, scope) : null;
    let status = 200;
    let contentType = JSON_TYPE;
    let body: string;
    if (quick !== null) body = quick;
    else {
      const response = await yoga.fetch(`http://localhost${req.originalUrl}`, { method: 'GET', headers: { accept } }, { cacheScope: scope });
      body = await response.text();
      status = response.status;
      contentType = response.headers.get('content-type') ?? JSON_TYPE;
    }
    // an "errors" key can only appear unescaped at the top level of the JSON
    const failed = status !== 200 || body.includes('"errors":[');
    const entry: CachedResponse = {
      status,
      contentType,
      body,
      etag: etagOf(body),
      cacheControl: failed ? ERROR : scope.exact > 0 && scope.loose === 0 ? IMMUTABLE : SHORT,
    };
    if (status < 500) cache?.set(key, entry);
    sendCached(req, res, entry);
  });
  app.use('/graphql', (req: Request, res: Response, next: NextFunction) => {
    const len = Number(req.get('content-length') ?? 0);
    if (len > bodyLimit) {
      res.status(413).json({ errors: [{ message: `request body larger than ${bodyLimit} bytes`, extensions: { code: 'BAD_USER_INPUT' } }] });
      return;
    }
    next();
  });
  app.use('/graphql', jsonBody(bodyLimit));
  app.use('/graphql', (req: Request, res: Response, next: NextFunction) => {
    const params = req.method === 'POST' && acceptsPlainJson(req.get('accept')) ? plainParams(req.body) : null;
    if (!params) {
      void yoga(req, res);
      return;
    }
    fast.run(params, { exact: 0, loose: 0 }).then((body) => {
      if (body === null) void yoga(req, res);
      else res.status(200).set('Content-Type', JSON_TYPE).send(body);
    }, next);
  });

  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'NOT_FOUND', message: 'no such endpoint; see / for the list' } });
  });
  // Last resort: never a stack trace to the client.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e = err as { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string };
    const status = e.status ?? e.statusCode ?? 500;
    if (res.headersSent) return;
    if (status >= 400 && status < 500 && e.expose) {
      const message = e.type === 'entity.too.large' ? 'request body too large' : e.type === 'entity.parse.failed' ? 'malformed JSON body' : 'bad request';
      res.status(status).json({ errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] });
      return;
    }
    console.error('crkb server error:', err);
    res.status(500).json({ errors: [{ message: 'internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
  });

  return {
    app,
    yoga,
    reader,
    db,
    close() {
      if (!opts.db) db.close();
    },
  };
}
