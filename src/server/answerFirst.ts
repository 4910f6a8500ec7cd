import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response, Router } from 'express';

/** What answerFirst reads of a layer of express's router (the `router` package's Layer; its types are not exported). */
interface RouteLayer {
  route?: unknown;
  match(path: string): { params: Record<string, string> } | false;
  handleRequest(req: Request, res: Response, next: NextFunction): void;
}

/** Routes answered first: a router's route layers (their paths as registered) for one method, under a mount path. */
interface FirstRoutes {
  method: 'GET' | 'POST';
  /** Where the router is mounted ('' for the app's own routes). */
  mount: '' | `/${string}`;
  router: Router;
  paths: string[];
}

/** Options of answerFirst. */
export interface AnswerFirstOptions {
  /** The app-wide middleware every request crosses before these routes (as express would run it). */
  shared: RequestHandler;
  /** The app's error handler (an error from shared or a route goes there, as through express). */
  lastResort: ErrorRequestHandler;
  /** The app's answer to a request no route answered. */
  notFound: RequestHandler;
  routes: FirstRoutes[];
}

interface Hot {
  method: string;
  /** The mount path followed by '/': only such paths may be the router's. */
  prefix: string;
  mount: string;
  layers: RouteLayer[];
}

/** A layer of the app's own router: a route, a middleware or a mounted router. */
interface AppLayer extends RouteLayer {
  handle: unknown;
  name: string;
}

const noop = (): void => undefined;

/**
 * Answers the busiest routes before express's router walk (each request otherwise crosses every layer of
 * the app and of the mounted router up to its route): a request of a listed method whose path one of the
 * listed route layers matches goes through `shared`, then that route layer, with the request set as
 * express's router sets it (baseUrl, url below the mount, params, route), errors going to `lastResort`.
 * Any other request, or one the layers cannot match (malformed encoding), goes to express untouched.
 * The routes must be the ones express reaches first for such a request after `shared`: the same answers.
 */
export function answerFirst(app: Express, opts: AnswerFirstOptions): void {
  const appStack = (app.router as unknown as { stack: AppLayer[] }).stack;
  const hot: Hot[] = opts.routes.map((r) => {
    const stack = (r.router as unknown as { stack: RouteLayer[] }).stack;
    const layers = r.paths.map((p) => {
      const layer = stack.find((l) => {
        const route = l.route as { path?: unknown; methods?: Record<string, boolean> } | undefined;
        return route?.path === p && route.methods?.[r.method.toLowerCase()] === true;
      });
      if (!layer) throw new Error(`answerFirst: no ${r.method} route ${p} in the router mounted at "${r.mount}"`);
      // where express reaches it in the app: the route itself, or the router it is mounted with
      const at = r.router === app.router ? appStack.indexOf(layer as AppLayer) : appStack.findIndex((l) => l.handle === r.router);
      if (at < 0) throw new Error(`answerFirst: the router of ${r.mount}${p} is not mounted in the app`);
      refuseSkippedLayers(appStack.slice(0, at), opts.shared, `${r.method} ${r.mount}${p}`, `${r.mount}${p}`);
      return layer;
    });
    return { method: r.method, prefix: `${r.mount}/`, mount: r.mount, layers };
  });
  // express's own entry (app(req, res) calls it), not in its types
  const entry = app as unknown as { handle: (req: Request, res: Response, next: NextFunction) => void };
  const handle = entry.handle.bind(app);
  const { shared, lastResort, notFound } = opts;
  entry.handle = (req: Request, res: Response, callback: NextFunction): void => {
    const url = req.url;
    let h: Hot | undefined;
    for (const x of hot)
      if (req.method === x.method && url.startsWith(x.prefix)) {
        h = x;
        break;
      }
    if (h === undefined) return handle(req, res, callback);
    // what express's app.handle does first (req.path then parses the URL as its router does)
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    const path = req.path.slice(h.mount.length);
    let layer: RouteLayer | undefined;
    let params: Record<string, string> | undefined;
    try {
      for (const l of h.layers) {
        const m = l.match(path);
        if (m) {
          layer = l;
          params = m.params;
          break;
        }
      }
    } catch {
      // (a malformed %-encoding: express's answer to it)
    }
    if (layer === undefined) return handle(req, res, callback);
    const mount = h.mount;
    req.baseUrl = '';
    req.originalUrl = url;
    req.params = {};
    // leaving the route as express's routers leave it: the mount's prefix restored on req.url and baseUrl
    const routed = (err?: unknown): void => {
      req.url = url;
      req.baseUrl = '';
      // (the params of the app's error or last layer, a mount without parameters)
      req.params = {};
      if (err !== undefined && err !== 'route' && err !== 'router') lastResort(err, req, res, noop);
      else notFound(req, res, noop);
    };
    shared(req, res, (err?: unknown) => {
      if (err !== undefined) return lastResort(err, req, res, noop);
      req.url = url.slice(mount.length);
      req.baseUrl = mount;
      req.params = params!;
      layer.handleRequest(req, res, routed);
    });
  };
}

/**
 * Throws when a layer of the app before a listed route (`before`), other than `shared`, would act on its
 * requests (a middleware for every path, or one mounted over the route's path): answered first, such a
 * request would skip it. Route layers, and routers mounted elsewhere, are what they seem.
 */
function refuseSkippedLayers(before: AppLayer[], shared: RequestHandler, route: string, path: string): void {
  const skipped = before.find((l) => l.route === undefined && l.handle !== shared && l.match(path) !== false);
  if (skipped) throw new Error(`answerFirst: the app's layer "${skipped.name}" acts on ${route} before its route: answered first, it would be skipped`);
}
