import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Express } from 'express';

/** A listening server. */
export interface Listening {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens with an app on host:port (port 0: any free port) with request time limits set. */
export function listen(app: Express, port: number, host = '127.0.0.1'): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (err?: Error) => {
      if (err) return reject(err);
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
      });
    });
    server.requestTimeout = 15_000;
    server.headersTimeout = 10_000;
    server.keepAliveTimeout = 5_000;
    server.once('error', reject);
  });
}

// Thin entry for scripts and the bench: node dist/src/server/listen.js DBFILE [PORT] [HOST]; prints the URL.
// CRKB_RESPONSE_CACHE=0 turns the in-memory answer cache off (to measure uncached work).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dbFile = process.env.CRKB_DB ?? 'data/crkb.db', port = '4000', host = '127.0.0.1'] = process.argv.slice(2);
  // a server runs in production mode unless told otherwise: graphql-js skips its development checks
  // (read when it loads, hence the import after this)
  process.env.NODE_ENV ??= 'production';
  const { buildServer } = await import('./buildServer.js');
  const built = await buildServer({ dbFile, responseCache: process.env.CRKB_RESPONSE_CACHE !== '0' });
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
  const stop = () => void l.close().then(() => { built.close(); process.exit(0); });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
