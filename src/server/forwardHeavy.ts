import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { GraphQLError, Source, print, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { numberLevel } from '../core/ruleNumber.js';
import { capitalize } from '../query/chatText.js';
import type { CacheScope } from './ApiContext.js';
import { sendSurfaceError } from './errors.js';
import type { ExecutorChoice } from './limits.js';
import { HeavyRefusal, type HeavyKind, type HeavyPool } from './HeavyPool.js';
import type { HeavyTask } from './heavyTask.js';
import { offsetOf } from './graphqlEndpoint.js';
import { sendCached, type CachedResponse, type ResponseCache } from '../http/ResponseCache.js';

/** Discord commands that compute a diff or a history. */
const HEAVY_COMMANDS = new Map<string, HeavyKind>([
  ['diff', 'diff'],
  ['history', 'history'],
]);

/**
 * The kind of costly work a request asks for, from its method and path (null: cheap, answered
 * inline). Diff pages and the feed of editions compute diffs; history pages and per-rule feeds
 * histories; sections, parts and the glossary are long pages; an edition as JSON is an export.
 */
export function heavyKindOf(method: string, path: string): HeavyKind | null {
  if (method === 'GET' || method === 'HEAD') {
    if (path === '/diff' || path.startsWith('/diff/') || path === '/feed.atom') return 'diff';
    if (path.startsWith('/history/') || path.startsWith('/feed/')) return 'history';
    const page = /^\/cr\/[^/]+\/([^/]+)$/.exec(path)?.[1];
    if (page === 'glossary' || (page !== undefined && (numberLevel(page) === 'part' || numberLevel(page) === 'section'))) return 'page';
    if (path.startsWith('/v1/editions/')) return 'export';
    return null;
  }
  if (method === 'POST' && path === '/v1/citations') return 'citations';
  return null;
}

/** The command a Discord interaction body names, if it is a costly one. */
function discordKind(body: Buffer): HeavyKind | null {
  try {
    const i = JSON.parse(body.toString('utf8')) as { type?: unknown; data?: { name?: unknown } } | null;
    // type 2: an application command (autocomplete, type 4, is cheap)
    return i?.type === 2 && typeof i.data?.name === 'string' ? (HEAVY_COMMANDS.get(i.data.name) ?? null) : null;
  } catch {
    return null;
  }
}

/** Options of forwardHeavy. */
export interface ForwardOptions {
  pool: HeavyPool;
  cache: ResponseCache | null;
  publicUrl: () => string;
  /** The page a refused web request gets (status, message): HTML in the site's layout. */
  htmlError: (title: string, message: string) => string;
  /** A GET of a costly kind that is small enough to answer on this thread after all (see smallPage). */
  small?: (kind: HeavyKind, path: string, query: Record<string, unknown>) => boolean;
}

/** Request headers a forwarded request leaves behind. */
const DROPPED = new Set(['accept-encoding', 'if-none-match', 'if-modified-since', 'connection']);

const TEXT_TYPES = /^(?:text\/|application\/(?:json|atom\+xml|xml|javascript))/;

/**
 * Express middleware: a costly request runs on a heavy worker thread (see HeavyPool) instead of this
 * event loop; its answer is cached here like any other (GET, by URL, bounded in bytes). A refused
 * request gets 503 with Retry-After, in its surface's shape (JSON for the API and feeds, a page for
 * people, a message for Discord).
 */
export function forwardHeavy(opts: ForwardOptions): RequestHandler {
  const rawSmall = express.raw({ type: () => true, limit: '64kb' });
  const rawLarge = express.raw({ type: () => true, limit: '1mb' });
  const forward = async (req: Request, res: Response, kind: HeavyKind, body: Buffer | undefined): Promise<void> => {
    // the worker answers in full and uncompressed: this thread negotiates encodings and 304s
    const headers = Object.fromEntries(
      Object.entries(req.headers)
        .filter(([k, v]) => v !== undefined && !DROPPED.has(k))
        .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v!]),
    );
    const task: HeavyTask = { method: req.method, url: req.originalUrl, headers, publicUrl: opts.publicUrl(), ...(body ? { body } : {}) };
    let r;
    try {
      r = await opts.pool.run(kind, task);
    } catch (e) {
      if (!(e instanceof HeavyRefusal)) throw e;
      refuse(req, res, e);
      return;
    }
    // a view of the bytes the worker sent, not a copy of them
    const bytes = Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength);
    const contentType = r.headers['content-type'] ?? 'application/octet-stream';
    const etag = r.headers.etag;
    const cacheControl = r.headers['cache-control'];
    if (req.method === 'GET' && etag && cacheControl && r.status < 500 && TEXT_TYPES.test(contentType)) {
      // sent as the bytes they are (the worker's express set the content type's charset as it sent them)
      const entry: CachedResponse = { status: r.status, contentType, body: bytes, etag, cacheControl };
      await sendCached(req, res, opts.cache?.set(req.originalUrl, entry) ?? entry);
      return;
    }
    res.status(r.status).set(r.headers);
    if (r.status === 200 && etag && req.fresh) {
      res.status(304).end();
      return;
    }
    res.send(bytes);
  };
  const refuse = (req: Request, res: Response, e: HeavyRefusal): void => {
    const headers = { 'Retry-After': String(e.retryAfter), 'Cache-Control': 'no-store' };
    if (req.path === '/discord/interactions') {
      // Discord shows a non-200 as "the application did not respond": say it in the channel instead
      res
        .status(200)
        .set(headers)
        .json({ type: 4, data: { content: `${capitalize(e.message)}.`, flags: 64 } });
    } else sendSurfaceError(req, res, { status: 503, code: e.reason === 'busy' ? 'BUSY' : 'TIMEOUT', message: e.message }, opts.htmlError, headers);
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'POST' && req.path === '/discord/interactions') {
      rawSmall(req, res, (err?: unknown) => {
        if (err) return next(err);
        const kind = Buffer.isBuffer(req.body) ? discordKind(req.body) : null;
        if (kind === null) return next();
        forward(req, res, kind, req.body as Buffer).catch(next);
      });
      return;
    }
    const kind = heavyKindOf(req.method, req.path);
    if (kind === null) return next();
    if ((req.method === 'GET' || req.method === 'HEAD') && opts.small?.(kind, req.path, req.query)) return next();
    if (req.method === 'GET') {
      const hit = opts.cache?.get(req.originalUrl);
      (hit ? sendCached(req, res, hit) : forward(req, res, kind, undefined))?.catch(next);
      return;
    }
    rawLarge(req, res, (err?: unknown) => {
      if (err) return next(err);
      forward(req, res, kind, Buffer.isBuffer(req.body) ? req.body : undefined).catch(next);
    });
  };
}

/** Operations at least this costly (in the cost table's units of about 0.1 ms) run on the heavy worker thread. */
const HEAVY_GRAPHQL_COST = 100;

interface WireError {
  message: string;
  locations?: Array<{ line: number; column: number }>;
  path?: Array<string | number>;
  extensions?: Record<string, unknown>;
}

/**
 * The executor choice of the GraphQL pipeline: an operation costing HEAVY_GRAPHQL_COST or more is
 * executed on the heavy worker thread (its answer there already masked), within the `graphql`
 * kind's admission and budget; a refusal is an error with code BUSY or TIMEOUT and Retry-After.
 */
export function graphqlOnPool(pool: HeavyPool, publicUrl: () => string): ExecutorChoice {
  return (cost) => {
    if (cost < HEAVY_GRAPHQL_COST) return undefined;
    return async (args: ExecutionArgs): Promise<ExecutionResult> => {
      // the client's own text, so error locations point into it
      const query = args.document.loc?.source.body ?? print(args.document);
      const variables = args.variableValues ?? undefined;
      const graphql = { query, ...(variables ? { variables } : {}), ...(args.operationName ? { operationName: args.operationName } : {}) };
      let r;
      try {
        r = await pool.run('graphql', { method: 'POST', url: '/graphql', headers: {}, graphql, publicUrl: publicUrl() });
      } catch (e) {
        if (!(e instanceof HeavyRefusal)) throw e;
        const code = e.reason === 'busy' ? 'BUSY' : 'TIMEOUT';
        return {
          data: null,
          errors: [new GraphQLError(e.message, { extensions: { code, http: { status: 503, headers: { 'Retry-After': String(e.retryAfter) } } } })],
        };
      }
      const scope = (args.contextValue as { cache?: CacheScope }).cache;
      if (scope && r.scope) {
        scope.exact += r.scope.exact;
        scope.loose += r.scope.loose;
      }
      const answer = JSON.parse(Buffer.from(r.body).toString('utf8')) as { data?: Record<string, unknown> | null; errors?: WireError[] };
      if (!answer.errors) return { data: answer.data ?? null };
      return {
        // locations map back onto the text the worker executed: the client's own
        errors: answer.errors.map(
          (e) =>
            new GraphQLError(e.message, {
              ...(e.path ? { path: e.path } : {}),
              ...(e.extensions ? { extensions: e.extensions } : {}),
              ...(e.locations?.length ? { source: new Source(query), positions: e.locations.map((l) => offsetOf(query, l.line, l.column)) } : {}),
            }),
        ),
        data: answer.data ?? null,
      };
    };
  };
}
