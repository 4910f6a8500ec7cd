import type { Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { HeavyKind } from './HeavyPool.js';

const KINDS: HeavyKind[] = ['diff', 'history', 'page', 'export', 'citations', 'graphql'];

/** What the metrics read of the server. */
export interface MetricsSource {
  dbSha256: string;
  /** When the database file was last modified (ms since the epoch), or null for an in-memory one. */
  dbMtimeMs: number | null;
  /** Heavy requests of a kind waiting or running (HeavyPool.load), or null without a pool. */
  heavyLoad: ((kind: HeavyKind) => number) | null;
  /** The whole server's metrics (every process's, aggregated by the supervisor), or null to answer with this process's. */
  whole?: () => Promise<string | null>;
}

/** One process's metrics as prom-client's JSON (what AggregatorRegistry.aggregate sums). */
export type ProcessMetrics = Array<MetricObjectWithValues<MetricValue<string>>>;

/** The route template of an answered request: the matched route (`/v1/rules/:number`), or `unrouted` (bounded label values). */
function routeOf(req: Request): string {
  const r = (req as { route?: { path?: unknown } }).route;
  return typeof r?.path === 'string' ? `${req.baseUrl}${r.path}` : 'unrouted';
}

/**
 * Prometheus metrics of one server process (prom-client), served at /metrics: answers by route
 * template and status with their latency (`crkb_http_request_duration_seconds`), heavy-work queue
 * depth by kind, the database's hash (`crkb_db_info`) and age, and node's defaults (CPU, memory,
 * event-loop lag). Returns what records an answer (the probes middleware times it) and the /metrics handler.
 * Under `crkb serve` /metrics answers for the whole server (src.whole: the supervisor sums every process's,
 * as each metric's aggregator says, and adds its own reload and restart counts).
 */
export function metrics(src: MetricsSource): {
  observe: (req: Request, res: Response, seconds: number) => void;
  endpoint: (req: Request, res: Response) => Promise<void>;
  registry: Registry;
  json: () => Promise<ProcessMetrics>;
} {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'crkb_' });
  const duration = new Histogram({
    name: 'crkb_http_request_duration_seconds',
    help: 'Answers by route template and status: time from request to the last byte handed to the kernel',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // each series' histogram with its labels bound (bounded: route templates, statuses and the methods node parses)
  const bySeries = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  new Gauge({
    name: 'crkb_heavy_queue_depth',
    help: 'Costly requests waiting or running on the heavy worker threads, by kind',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      if (src.heavyLoad) for (const k of KINDS) this.set({ kind: k }, src.heavyLoad(k));
    },
  });
  new Gauge({
    name: 'crkb_db_info',
    help: 'Server processes serving each database, by sha256 (1 per process; two hashes while a reload drains)',
    labelNames: ['sha256'],
    registers: [registry],
  }).set({ sha256: src.dbSha256 }, 1);
  new Gauge({
    name: 'crkb_db_age_seconds',
    help: 'Seconds since the database file served was written (the newest one across processes)',
    registers: [registry],
    aggregator: 'min',
    collect() {
      if (src.dbMtimeMs !== null) this.set((Date.now() - src.dbMtimeMs) / 1000);
    },
  });
  new Counter({ name: 'crkb_db_loads_total', help: 'Databases this process loaded (1: a reload starts new processes)', registers: [registry] }).inc();
  return {
    registry,
    json: () => registry.getMetricsAsJSON(),
    observe(req, res, seconds) {
      const route = routeOf(req);
      const key = `${req.method} ${res.statusCode} ${route}`;
      let series = bySeries.get(key);
      if (!series) bySeries.set(key, (series = duration.labels({ method: req.method, route, status: res.statusCode })));
      series.observe(seconds);
    },
    async endpoint(_req, res) {
      const body = (await src.whole?.()) ?? (await registry.metrics());
      res.set('Cache-Control', 'no-store').type(registry.contentType).send(body);
    },
  };
}
