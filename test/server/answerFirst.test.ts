import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { answerFirst } from '../../src/server/answerFirst.js';
import { listen, type Listening } from '../../src/server/listen.js';

// What a handler sees of the request, as it answers (the path's case aside: express's routes ignore it).
const seen = (req: Request, extra: Record<string, unknown> = {}) => ({
  baseUrl: req.baseUrl.toLowerCase(),
  url: req.url.toLowerCase(),
  originalUrl: req.originalUrl.toLowerCase(),
  params: req.params,
  route: (req.route as { path?: string } | undefined)?.path ?? null,
  query: req.query,
  shared: String(res(req).getHeader('x-shared')).toLowerCase(),
  ...extra,
});
const res = (req: Request): Response => req.res!;

let l: Listening;
let walked = 0;
before(async () => {
  const app = express();
  const shared = (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('X-Shared', req.path);
    if (req.headers['x-fail'] === 'shared') return next(new Error('shared failed'));
    next();
  };
  app.use(shared);
  // routes of other paths and a router mounted elsewhere: express walks past them
  app.get('/graphql', (_req, res) => void res.status(405).end());
  app.use('/assets', Router());
  app.post('/graphql', express.text({ type: () => true }), (req, res) => void res.json(seen(req, { body: req.body as unknown })));
  const v1 = Router();
  v1.get('/rules/:number', (req, res) => {
    if (req.query.fail !== undefined) throw new Error('route failed');
    res.json(seen(req));
  });
  v1.get('/lookup', async (req, res) => {
    await Promise.resolve();
    if (req.query.fail !== undefined) throw new Error('async route failed');
    res.json(seen(req));
  });
  app.use('/v1', v1);
  const notFound = (req: Request, res: Response): void => void res.status(404).json(seen(req, { notFound: true }));
  const lastResort = (err: unknown, req: Request, res: Response, _next: NextFunction): void =>
    void res.status(err instanceof URIError ? 400 : 500).json(seen(req, { error: (err as Error).message }));
  app.use(notFound);
  app.use(lastResort);
  // express's own entry, counted: a request answered first never reaches it
  const entry = app as unknown as { handle: (...a: unknown[]) => void };
  const handle = entry.handle.bind(app);
  entry.handle = (...a: unknown[]): void => {
    walked++;
    handle(...a);
  };
  answerFirst(app, {
    shared,
    lastResort,
    notFound,
    routes: [
      { method: 'GET', mount: '/v1', router: v1, paths: ['/rules/:number', '/lookup'] },
      { method: 'POST', mount: '', router: app.router, paths: ['/graphql'] },
    ],
  });
  l = await listen(app, 0);
});
after(() => l.close());

// One request answered first (a lowercase path) and through express's walk (the same path in capitals, which
// answerFirst leaves to express): both answers, and how many requests walked express's router.
async function both(path: string, init: RequestInit = {}) {
  const ask = async (p: string) => {
    const before = walked;
    const r = await fetch(l.url + p, init);
    return { status: r.status, shared: r.headers.get('x-shared')?.toLowerCase(), body: (await r.json()) as unknown, walked: walked - before };
  };
  const first = await ask(path);
  const express = await ask(path.replace(/^\/[a-z0-9]+/, (s) => s.toUpperCase()));
  return { first, express };
}

test('a listed route answers as through express, without the walk: baseUrl, url, params, route, query', async () => {
  for (const path of ['/v1/rules/702.19b?format=json&format=text', '/v1/rules/a%20b/', '/v1/lookup?q=trample']) {
    const { first, express } = await both(path);
    assert.equal(first.status, 200, path);
    assert.deepEqual({ ...first, walked: 0 }, { ...express, walked: 0 }, path);
    assert.equal(first.walked, 0, path);
    assert.equal(express.walked, 1, path);
  }
  const { first } = await both('/v1/rules/a%20b');
  assert.deepEqual((first.body as { params: unknown }).params, { number: 'a b' });
});

test('a listed POST route gets its body parser and handler as through express', async () => {
  const { first, express } = await both('/graphql?x=1', { method: 'POST', body: '{"query":"{ a }"}' });
  assert.equal(first.status, 200);
  assert.deepEqual({ ...first, walked: 0 }, { ...express, walked: 0 });
  assert.equal((first.body as { body: string }).body, '{"query":"{ a }"}');
  assert.equal(first.walked, 0);
});

test('errors (shared, a route, an async route) reach the error handler with the request as express leaves it', async () => {
  for (const [path, init] of [
    ['/v1/rules/1?fail=1', {}],
    ['/v1/lookup?fail=1', {}],
    ['/v1/rules/1', { headers: { 'x-fail': 'shared' } }],
  ] as Array<[string, RequestInit]>) {
    const { first, express } = await both(path, init);
    assert.equal(first.status, 500, path);
    assert.deepEqual({ ...first, walked: 0 }, { ...express, walked: 0 }, path);
  }
});

test('anything else goes to express: other methods, other paths, a path the route cannot decode', async () => {
  for (const [path, init, status] of [
    ['/v1/rules/%E0%A4%A', {}, 400],
    ['/v1/nothing', {}, 404],
    ['/v1/rules/1', { method: 'DELETE' }, 404],
    ['/graphql', {}, 405],
  ] as Array<[string, RequestInit, number]>) {
    const before = walked;
    const r = await fetch(l.url + path, init);
    assert.equal(r.status, status, path);
    assert.equal(walked - before, 1, path);
  }
});

test('a route that is not in the router is refused when the app is built', () => {
  const app = express();
  assert.throws(
    () =>
      answerFirst(app, {
        shared: (_q, _s, n) => n(),
        lastResort: () => undefined,
        notFound: () => undefined,
        routes: [{ method: 'GET', mount: '/v1', router: Router(), paths: ['/x'] }],
      }),
    /no GET route \/x/,
  );
});

test('a middleware that would act on a listed route before it (and be skipped) is refused when the app is built', () => {
  const build = (extra: (app: express.Express) => void) => {
    const app = express();
    const shared = (_q: Request, _s: Response, n: NextFunction): void => n();
    app.use(shared);
    extra(app);
    const v1 = Router();
    v1.get('/rules/:number', (_q, s) => void s.end());
    app.use('/v1', v1);
    app.post('/graphql', (_q, s) => void s.end());
    answerFirst(app, {
      shared,
      lastResort: () => undefined,
      notFound: () => undefined,
      routes: [
        { method: 'GET', mount: '/v1', router: v1, paths: ['/rules/:number'] },
        { method: 'POST', mount: '', router: app.router, paths: ['/graphql'] },
      ],
    });
  };
  assert.doesNotThrow(() => build((app) => app.use('/assets', Router())));
  assert.throws(() => build((app) => app.use((_q, _s, n) => n())), /acts on GET \/v1\/rules\/:number before its route/);
  assert.throws(() => build((app) => app.use('/v1', (_q, _s, n) => n())), /acts on GET \/v1\/rules\/:number/);
  assert.throws(() => build((app) => app.use('/graphql', Router())), /acts on POST \/graphql before its route/);
  // between a route of the same path and another method and the listed one
  assert.throws(
    () =>
      build((app) => {
        app.get('/graphql', (_q, s) => void s.end());
        app.use('/graphql', (_q, _s, n) => n());
      }),
    /acts on POST \/graphql before its route/,
  );
});
