import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import { log } from './logger.js';

// a request id a client or proxy sent is kept when it is short and plain (it is echoed in a header and logged)
const GOOD_ID = /^[\w.:@/+=-]{1,128}$/;

const TIMED = Symbol('probes: the request id and start of an answer');
type Timed = Response & { [TIMED]?: { id: string; start: number } };

/** Options of probes(). */
export interface ProbeOptions {
  /** sha256 of the database served. */
  dbSha256: string;
  /** True while a verified database is loaded and the process takes new work (false while it drains). */
  ready(): boolean;
  /** Answers at least this slow are logged at info (default 1000 ms); others at debug. */
  slowMs?: number;
  /** Told of every answer but the probes' own, with its time from request to the last byte (the metrics). */
  observe?: (req: Request, res: Response, seconds: number) => void;
}

/**
 * The first middleware: `/healthz` (alive) and `/readyz` (a verified database loaded, 503 otherwise),
 * the database's hash on every answer (`X-Crkb-Db`), a request id (`X-Request-Id`, the client's or a
 * new one) on every answer and log line. Every answer is logged at debug; 5xx and slow ones at info.
 */
export function probes(opts: ProbeOptions): (req: Request, res: Response, next: NextFunction) => void {
  const slowMs = opts.slowMs ?? 1000;
  // a new id: a UUID of this process's with its last 12 digits counting (unique per process and across them, no
  // random bytes per request)
  const prefix = randomUUID().slice(0, 24);
  let count = 0;
  // one listener for every answer (no closure per request): what it needs is kept on the answer
  function answered(this: Response): void {
    const t = (this as Timed)[TIMED]!;
    const ms = performance.now() - t.start;
    const req = this.req;
    opts.observe?.(req, this, ms / 1000);
    const level = this.statusCode >= 500 || ms >= slowMs ? 'info' : 'debug';
    if (log.isLevelEnabled(level))
      log[level]({ id: t.id, method: req.method, url: req.originalUrl.slice(0, 500), status: this.statusCode, ms: Math.round(ms * 10) / 10 }, 'answer');
  }
  return (req, res, next) => {
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && GOOD_ID.test(sent) ? sent : prefix + (count++).toString(16).padStart(12, '0');
    res.setHeader('X-Request-Id', id);
    res.setHeader('X-Crkb-Db', opts.dbSha256);
    const path = req.path;
    if (path === '/healthz' || path === '/readyz') {
      const ok = path === '/healthz' || opts.ready();
      res
        .status(ok ? 200 : 503)
        .set('Cache-Control', 'no-store')
        .type('json')
        .send(`{"status":"${ok ? 'ok' : 'not ready'}","db":"${opts.dbSha256}"}`);
      return;
    }
    (res as Timed)[TIMED] = { id, start: performance.now() };
    res.on('finish', answered);
    next();
  };
}
