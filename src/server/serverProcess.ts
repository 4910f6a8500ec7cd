import type { BuiltServer } from './buildServer.js';
import { listen, type ConnectionLimits } from './listen.js';
import type { ProcessMetrics } from './metrics.js';

/**
 * Messages between the supervisor (supervise.ts) and a server process, over the cluster's IPC channel.
 * metrics-request: /metrics was asked of this process; metrics-part: this process's share of a gathering.
 */
export type ServerMessage =
  | { crkb: 'ready'; sha256: string; url: string }
  | { crkb: 'beat' }
  | { crkb: 'refused'; reason: string }
  | { crkb: 'metrics-request'; id: number }
  | { crkb: 'metrics-part'; id: number; json: ProcessMetrics };
/**
 * What the supervisor tells a server process: finish and exit (drain: others take over; stop: the service
 * stops); send your metrics (metrics-collect); the whole server's metrics asked for (metrics-whole).
 */
export type SupervisorMessage =
  { crkb: 'drain' } | { crkb: 'stop' } | { crkb: 'metrics-collect'; id: number } | { crkb: 'metrics-whole'; id: number; text: string };

const asked = new Map<number, (text: string | null) => void>();
let nextAsk = 1;

/** The whole server's metrics from the supervisor (every process's, aggregated), or null when unsupervised or it does not answer in 5 s. */
export function wholeMetrics(): Promise<string | null> {
  if (!process.send || !process.connected) return Promise.resolve(null);
  if (asked.size === 0) process.on('message', onWhole);
  const id = nextAsk++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(null), 5000);
    const done = (text: string | null): void => {
      clearTimeout(timer);
      asked.delete(id);
      if (asked.size === 0) process.off('message', onWhole);
      resolve(text);
    };
    asked.set(id, done);
    tellSupervisor({ crkb: 'metrics-request', id });
  });
}

function onWhole(m: SupervisorMessage): void {
  if (m?.crkb === 'metrics-whole') asked.get(m.id)?.(m.text);
}

/** Settings of a supervised server process. */
export interface ServerProcessOptions {
  port: number;
  host: string;
  /** Heartbeats to the supervisor this often, from the event loop. */
  heartbeatMs: number;
  /** A drain closes what is still open after this long. */
  drainMs: number;
  limits?: ConnectionLimits;
  /** Called with the URL once listening (the server's public URL may depend on it). */
  onListening?(url: string): void;
}

/** Sends a message to the supervisor; false when there is none (any more). */
export function tellSupervisor(m: ServerMessage, then?: () => void): boolean {
  if (!process.send || !process.connected) return false;
  process.send(m, undefined, {}, () => then?.());
  return true;
}

/**
 * Runs a built server as one process of the supervisor's (sharing its port through node's cluster):
 * listens, tells the supervisor it is ready (with the database's sha256), sends heartbeats from its
 * event loop, and when told to drain or stop (or on SIGINT/SIGTERM) stops taking connections, lets
 * open ones finish and exits.
 */
export async function runServerProcess(built: BuiltServer, opts: ServerProcessOptions): Promise<void> {
  const l = await listen(built.app, opts.port, opts.host, opts.limits);
  opts.onListening?.(l.url);
  tellSupervisor({ crkb: 'ready', sha256: built.dbSha256, url: l.url });
  const beat = setInterval(() => tellSupervisor({ crkb: 'beat' }), opts.heartbeatMs);
  const finish = (closeIdle: boolean): void => {
    built.unready();
    void l.drain(opts.drainMs, { closeIdle }).then(async () => {
      clearInterval(beat);
      await built.close();
      process.exit(0);
    });
  };
  process.on('message', (m: SupervisorMessage) => {
    if (m?.crkb === 'drain' || m?.crkb === 'stop') finish(m.crkb === 'stop');
    else if (m?.crkb === 'metrics-collect') void built.metricsJson().then((json) => tellSupervisor({ crkb: 'metrics-part', id: m.id, json }));
  });
  process.on('SIGINT', () => finish(true));
  process.on('SIGTERM', () => finish(true));
}
