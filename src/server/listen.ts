import { IncomingMessage, ServerResponse, createServer, type Server } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Express } from 'express';

/** A listening server. */
export interface Listening {
  server: Server;
  url: string;
  port: number;
  /** Stops at once: no new connections, open ones closed. */
  close(): Promise<void>;
  /**
   * Stops gracefully: no new connections; answers in progress are sent with `Connection: close`, and
   * so is the next answer on a kept-alive connection; an idle kept-alive connection is closed by the
   * keep-alive timeout (which the client knows and closes before: closing it here could race a
   * request the client is sending on it), or at once with `closeIdle` (when the whole service stops,
   * there is no other server to retry on anyway). Whatever is still open after `boundMs` is closed.
   */
  drain(boundMs: number, opts?: { closeIdle?: boolean }): Promise<void>;
}

/** Connection limits of listen(). */
export interface ConnectionLimits {
  /** A connection that neither sends nor takes any byte for this long is dropped (a client that stopped reading); default 30 s. */
  idleTimeoutMs?: number;
  /** Requests a connection may have sent and not yet taken the answers of (pipelined); one more and it is dropped. Default 16. */
  maxPipelined?: number;
}

/** Default connection limits. */
export const CONNECTION_LIMITS: Required<ConnectionLimits> = { idleTimeoutMs: 30_000, maxPipelined: 16 };

/**
 * node's request and response classes with express's methods in their prototypes from the start: express's
 * app.handle sets each request's and answer's prototype to these, which is then no change (setting another
 * prototype on every request, as it would, costs more than that: node's own code then meets objects of other shapes).
 */
function expressClasses(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  const { request, response } = app as unknown as { request: IncomingMessage; response: ServerResponse };
  function Request(this: IncomingMessage, socket: Socket): void {
    IncomingMessage.call(this, socket);
  }
  Request.prototype = request;
  function Response(this: ServerResponse, req: IncomingMessage, options: unknown): void {
    (ServerResponse as unknown as (this: ServerResponse, req: IncomingMessage, options: unknown) => void).call(this, req, options);
  }
  Response.prototype = response;
  return { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse };
}

/** Listens with an app on host:port (port 0: any free port) with request time and connection limits set. */
export function listen(app: Express, port: number, host = '127.0.0.1', limits: ConnectionLimits = {}): Promise<Listening> {
  const { idleTimeoutMs, maxPipelined } = { ...CONNECTION_LIMITS, ...limits };
  const open = new Set<Socket>();
  const answering = new Set<ServerResponse>();
  // Answers a connection has not taken yet: a client pipelining requests without reading the
  // answers would otherwise have every request it sent worked on (node keeps parsing what it read).
  const unanswered = new WeakMap<Socket, number>();
  let draining: Promise<void> | null = null;
  // one listener for every answer (no closure per request)
  function closed(this: ServerResponse): void {
    const socket = this.req.socket;
    unanswered.set(socket, (unanswered.get(socket) ?? 1) - 1);
    answering.delete(this);
  }
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket;
    if (socket.destroyed) return;
    const n = (unanswered.get(socket) ?? 0) + 1;
    if (n > maxPipelined) {
      socket.destroy();
      return;
    }
    unanswered.set(socket, n);
    answering.add(res);
    res.on('close', closed);
    if (draining) res.setHeader('Connection', 'close');
    app(req, res);
  };
  const server = createServer(expressClasses(app), handle);
  server.on('connection', (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  });
  server.requestTimeout = 15_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  // a client that stops reading an answer stops the socket's progress: dropped after this long
  server.timeout = idleTimeoutMs;

  let closeIdle = false;
  const drain = (boundMs: number): Promise<void> =>
    new Promise((resolve) => {
      for (const res of answering) if (!res.headersSent) res.setHeader('Connection', 'close');
      // net's close, not http's, which would also close every idle kept-alive connection at once
      NetServer.prototype.close.call(server);
      const done = (): void => {
        clearInterval(poll);
        clearTimeout(bound);
        server.closeAllConnections();
        resolve();
      };
      const poll = setInterval(() => {
        if (closeIdle) server.closeIdleConnections();
        if (open.size === 0) done();
      }, 50);
      const bound = setTimeout(done, boundMs);
    });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const addr = server.address() as AddressInfo;
      const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      resolve({
        server,
        port: addr.port,
        url: `http://${h}:${addr.port}`,
        close: () =>
          new Promise<void>((res) => {
            server.close(() => res());
            server.closeAllConnections();
          }),
        drain: (boundMs, opts = {}) => {
          // a stop during a drain closes the idle connections from then on
          closeIdle ||= opts.closeIdle === true;
          return (draining ??= drain(boundMs));
        },
      });
    });
  });
}

// Thin entry for scripts and the bench: node dist/src/server/listen.js DBFILE [PORT] [HOST]; prints the URL.
// CRKB_RESPONSE_CACHE=0 turns the in-memory answer cache off (to measure uncached work). (A function, not
// top-level awaits: the module is also part of the serve bundle, CommonJS: scripts/buildCli.mjs.)
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void listenMain();

async function listenMain(): Promise<void> {
  const [dbFile = process.env.CRKB_DB ?? 'data/crkb.db', port = '4000', host = '127.0.0.1'] = process.argv.slice(2);
  // a server runs in production mode unless told otherwise: graphql-js skips its development checks
  // (read when it loads, hence the import after this)
  process.env.NODE_ENV ??= 'production';
  const { buildServer } = await import('./buildServer.js');
  const built = await buildServer({ dbFile, responseCache: process.env.CRKB_RESPONSE_CACHE !== '0', diffsInBackground: true });
  const l = await listen(built.app, Number(port), host);
  console.log(l.url);
  // CRKB_MEMLOG=SECONDS: memory use on stderr every so often (to see where resident memory goes)
  const every = Number(process.env.CRKB_MEMLOG ?? 0);
  if (every > 0) {
    setInterval(() => {
      const m = process.memoryUsage();
      const mb = (n: number) => (n / 1048576).toFixed(1);
      console.error(`crkb memory: rss ${mb(m.rss)} heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} external ${mb(m.external)} MB`);
    }, every * 1000).unref();
  }
  const stop = () =>
    void l.close().then(async () => {
      await built.close();
      process.exit(0);
    });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
