import type { BuiltServer } from './buildServer.js';
import { listen, type ConnectionLimits } from './listen.js';

/** Messages between the supervisor (supervise.ts) and a server process, over the cluster's IPC channel. */
export type ServerMessage = { crkb: 'ready'; sha256: string; url: string } | { crkb: 'beat' } | { crkb: 'refused'; reason: string };
/** What the supervisor tells a server process: finish and exit (drain: others take over; stop: the service stops). */
export type SupervisorMessage = { crkb: 'drain' } | { crkb: 'stop' };

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
  });
  process.on('SIGINT', () => finish(true));
  process.on('SIGTERM', () => finish(true));
}
