import cluster, { type Worker } from 'node:cluster';
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import type { ProcessMetrics } from './metrics.js';
import type { ServerMessage, SupervisorMessage } from './serverProcess.js';

/** Timings of the supervisor, ms. */
export interface SupervisorTimings {
  /** A ready server process whose event loop sends no heartbeat for this long is killed and replaced. */
  hangMs: number;
  /** A server process not ready (database verified and loaded, listening) this long after it was started is killed. */
  startMs: number;
  /** Restart delays: the first after a failure, doubling with each failure in a row, at most max. */
  restartMinMs: number;
  restartMaxMs: number;
  /** A process that served this long before it failed starts its slot's delays afresh. */
  healthyMs: number;
  /** Processes retired (reload, stop) are killed if they have not drained after this long (and a little more). */
  drainMs: number;
  /** The database file is polled this often for a replacement. */
  watchMs: number;
}

/** Options of supervise(). */
export interface SuperviseOptions extends SupervisorTimings {
  /** The script a server process runs (forked by node's cluster), its arguments and V8 flags. */
  exec: string;
  args: string[];
  execArgv: string[];
  env: Record<string, string>;
  /** The database file the processes serve (watched for replacement). */
  file: string;
  /** Server processes (one per core by default). */
  workers: number;
  /** Lines of the supervisor's log (stderr). */
  log(line: string): void;
  /** Called once, when the first processes all serve. */
  onServing(info: { url: string; sha256: string }): void;
}

type State = 'starting' | 'ready' | 'draining' | 'discarded';

interface Proc {
  worker: Worker;
  pid: number;
  slot: number;
  gen: Generation;
  state: State;
  forkedAt: number;
  readyAt: number;
  lastBeat: number;
  sha256: string;
  url: string;
  refused: string | null;
  killedFor: string | null;
}

/** A set of server processes started together on one reading of the database file. */
interface Generation {
  id: number;
  /** Why it was started: 'start', 'SIGHUP', 'database replaced'. */
  reason: string;
  requestedAt: number;
  procs: Array<Proc | null>;
  failures: number[];
  timers: Array<NodeJS.Timeout | null>;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
const short = (sha: string): string => sha.slice(0, 12);

function describeExit(code: number | null, signal: string | null): string {
  return signal ? `was killed (${signal})` : code === 70 ? 'crashed (exit 70: an uncaught error)' : `exited (status ${code})`;
}

/**
 * The supervisor (cluster primary) of `crkb serve`: runs `workers` server processes sharing one port,
 * replaces one that crashes or whose event loop stops sending heartbeats (restart delays double with
 * each failure in a row, up to a cap, and never stop), reloads on SIGHUP or when the database file is
 * replaced by starting new processes and retiring the old ones once the new ones serve (a file the new
 * ones refuse leaves the old ones serving), and stops gracefully on SIGINT/SIGTERM. Resolves with the
 * exit status.
 */
export function supervise(opts: SuperviseOptions): Promise<number> {
  cluster.setupPrimary({ exec: opts.exec, args: opts.args, execArgv: opts.execArgv });
  const live = new Set<Proc>();
  let current: Generation | null = null;
  let pending: Generation | null = null;
  let again: string | null = null;
  let stopping = false;
  let nextGen = 1;
  let finish: (code: number) => void = () => undefined;
  const finished = new Promise<number>((r) => (finish = r));
  let exitCode = 0;

  // The supervisor's own metrics, added to the sum of its processes' when one is asked for /metrics.
  const registry = new Registry();
  const reloads = new Counter({
    name: 'crkb_reloads_total',
    help: 'Reloads (database replaced, SIGHUP) by result: served (new processes took over) or failed (the old ones kept serving)',
    labelNames: ['result'],
    registers: [registry],
  });
  for (const result of ['served', 'failed']) reloads.inc({ result }, 0);
  const restarts = new Counter({ name: 'crkb_process_restarts_total', help: 'Server processes replaced after a crash or a hang', registers: [registry] });
  new Gauge({
    name: 'crkb_server_processes',
    help: 'Server processes by state (starting, ready, draining)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      for (const st of ['starting', 'ready', 'draining'] as const) this.set({ state: st }, [...live].filter((p) => p.state === st).length);
    },
  });
  const gatherings = new Map<number, { parts: ProcessMetrics[]; waiting: Set<Proc>; done(): void }>();
  let nextGathering = 1;
  /** The whole server's metrics: every ready or draining process's (those answering within 2 s), summed, and the supervisor's. */
  const wholeMetrics = async (): Promise<string> => {
    const id = nextGathering++;
    const waiting = new Set([...live].filter((p) => p.state === 'ready' || p.state === 'draining'));
    const parts: ProcessMetrics[] = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), 2000);
      const done = (): void => {
        clearTimeout(timer);
        gatherings.delete(id);
        resolve();
      };
      gatherings.set(id, { parts, waiting, done });
      for (const p of waiting) send(p, { crkb: 'metrics-collect', id });
      if (waiting.size === 0) done();
    });
    parts.push(await registry.getMetricsAsJSON());
    return AggregatorRegistry.aggregate(parts).metrics();
  };

  const newGeneration = (reason: string): Generation => ({
    id: nextGen++,
    reason,
    requestedAt: Date.now(),
    procs: Array.from({ length: opts.workers }, () => null),
    failures: Array.from({ length: opts.workers }, () => 0),
    timers: Array.from({ length: opts.workers }, () => null),
  });

  const fork = (gen: Generation, slot: number): void => {
    gen.timers[slot] = null;
    const worker = cluster.fork(opts.env);
    const now = Date.now();
    const p: Proc = {
      worker,
      pid: worker.process.pid ?? 0,
      slot,
      gen,
      state: 'starting',
      forkedAt: now,
      readyAt: 0,
      lastBeat: now,
      sha256: '',
      url: '',
      refused: null,
      killedFor: null,
    };
    gen.procs[slot] = p;
    live.add(p);
    worker.on('message', (m: ServerMessage) => onMessage(p, m));
    worker.on('exit', (code, signal) => onExit(p, code, signal));
    // an IPC error (the process went away mid-message) shows as its exit
    worker.on('error', () => undefined);
  };

  const send = (p: Proc, m: SupervisorMessage): void => {
    if (p.worker.isConnected()) p.worker.send(m, undefined, () => undefined);
  };

  const kill = (p: Proc, why: string | null): void => {
    if (why) {
      p.killedFor = why;
      opts.log(`crkb: server process ${p.pid} ${why}; killing it`);
    }
    try {
      p.worker.process.kill('SIGKILL');
    } catch {
      // gone already
    }
  };

  const retire = (p: Proc, how: 'drain' | 'stop' = 'drain'): void => {
    p.state = 'draining';
    send(p, { crkb: how });
    setTimeout(() => {
      if (live.has(p)) kill(p, `did not finish draining within ${seconds(opts.drainMs)}`);
    }, opts.drainMs + 2000).unref();
  };

  const clearTimers = (gen: Generation): void => {
    for (const [slot, t] of gen.timers.entries()) {
      if (t) clearTimeout(t);
      gen.timers[slot] = null;
    }
  };

  const discard = (gen: Generation): void => {
    clearTimers(gen);
    for (const p of gen.procs) {
      if (p && p.state !== 'draining') {
        p.state = 'discarded';
        kill(p, null);
      }
    }
  };

  const onMessage = (p: Proc, m: ServerMessage): void => {
    if (m?.crkb === 'beat') p.lastBeat = Date.now();
    else if (m?.crkb === 'metrics-request') void wholeMetrics().then((text) => send(p, { crkb: 'metrics-whole', id: m.id, text }));
    else if (m?.crkb === 'metrics-part') {
      const g = gatherings.get(m.id);
      if (g?.waiting.delete(p)) {
        g.parts.push(m.json);
        if (g.waiting.size === 0) g.done();
      }
    } else if (m?.crkb === 'refused') p.refused = m.reason;
    else if (m?.crkb === 'ready' && p.state === 'starting') {
      p.state = 'ready';
      p.readyAt = p.lastBeat = Date.now();
      p.sha256 = m.sha256;
      p.url = m.url;
      if (p.gen === pending) promoteIfReady(p.gen);
    }
  };

  const promoteIfReady = (gen: Generation): void => {
    if (!gen.procs.every((p) => p?.state === 'ready')) return;
    const old = current;
    current = gen;
    pending = null;
    const first = gen.procs[0]!;
    if (old === null) {
      opts.onServing({ url: first.url, sha256: first.sha256 });
    } else {
      clearTimers(old);
      const olds = old.procs.filter((p): p is Proc => p !== null && live.has(p));
      for (const p of olds) retire(p);
      reloads.inc({ result: 'served' });
      opts.log(
        `crkb: ${gen.reason}: serving ${opts.file} (sha256 ${short(first.sha256)}) from ${gen.procs.length} new process${gen.procs.length === 1 ? '' : 'es'} ` +
          `(${gen.procs.map((p) => p!.pid).join(', ')}), ` +
          `ready ${seconds(Date.now() - gen.requestedAt)} after the request; ${olds.length} previous draining`,
      );
    }
    if (again !== null) {
      const why = again;
      again = null;
      reload(why);
    }
  };

  const failReload = (gen: Generation, reason: string): void => {
    pending = null;
    reloads.inc({ result: 'failed' });
    discard(gen);
    const serving = current?.procs.find((p) => p?.sha256)?.sha256;
    opts.log(`crkb: not reloading ${opts.file}: ${reason}; still serving sha256 ${serving ? short(serving) : '?'}`);
    if (again !== null) {
      const why = again;
      again = null;
      reload(why);
    }
  };

  const restartLater = (gen: Generation, slot: number, p: Proc, why: string): void => {
    if (p.readyAt > 0 && Date.now() - p.readyAt >= opts.healthyMs) gen.failures[slot] = 0;
    const delay = Math.min(opts.restartMinMs * 2 ** gen.failures[slot]!, opts.restartMaxMs);
    gen.failures[slot]!++;
    restarts.inc();
    opts.log(`crkb: server process ${p.pid} ${why}; starting another in ${seconds(delay)} (failure ${gen.failures[slot]} in a row)`);
    gen.timers[slot] = setTimeout(() => {
      if (!stopping && (gen === current || gen === pending)) fork(gen, slot);
    }, delay);
  };

  const onExit = (p: Proc, code: number | null, signal: string | null): void => {
    live.delete(p);
    for (const g of gatherings.values()) if (g.waiting.delete(p) && g.waiting.size === 0) g.done();
    const { gen, slot } = p;
    if (gen.procs[slot] === p) gen.procs[slot] = null;
    if (stopping) {
      if (live.size === 0) finish(exitCode);
      return;
    }
    if (p.state === 'draining' || p.state === 'discarded') return;
    const why = p.refused !== null ? `refused ${opts.file}: ${p.refused}` : (p.killedFor ?? describeExit(code, signal));
    if (gen === pending && current === null && p.refused !== null) {
      // nothing to serve: a file refused at start is a deliberate failure
      opts.log(`crkb: cannot serve ${opts.file}: ${p.refused}`);
      exitCode = 1;
      stop();
      return;
    }
    if (gen === pending && current !== null) {
      failReload(gen, p.refused ?? `a new server process ${why} while starting`);
      return;
    }
    restartLater(gen, slot, p, why);
  };

  const reload = (why: string): void => {
    if (stopping) return;
    if (pending) {
      again ??= why;
      return;
    }
    const gen = newGeneration(why);
    pending = gen;
    for (let slot = 0; slot < opts.workers; slot++) fork(gen, slot);
  };

  const watchdog = setInterval(
    () => {
      const now = Date.now();
      for (const p of live) {
        if (p.killedFor !== null) continue;
        if (p.state === 'starting' && now - p.forkedAt > opts.startMs) kill(p, `was not serving ${seconds(opts.startMs)} after it was started`);
        else if (p.state === 'ready' && now - p.lastBeat > opts.hangMs) kill(p, `stopped answering (no heartbeat for ${seconds(now - p.lastBeat)})`);
      }
    },
    Math.max(20, Math.min(1000, opts.hangMs / 4)),
  );

  // The file: an ingest renames a new copy into place (another inode); a copy over it changes size
  // and time. A reload starts once it has stopped changing for one poll.
  let settle: NodeJS.Timeout | null = null;
  let goneLogged = false;
  const onFileChange = (cur: Stats): void => {
    if (settle) clearTimeout(settle);
    settle = null;
    if (cur.ino === 0 && cur.mtimeMs === 0) {
      if (!goneLogged) {
        const serving = current?.procs.find((p) => p?.sha256)?.sha256;
        opts.log(`crkb: ${opts.file} is gone; still serving sha256 ${serving ? short(serving) : '?'} (held open)`);
      }
      goneLogged = true;
      return;
    }
    goneLogged = false;
    settle = setTimeout(() => {
      settle = null;
      reload('database replaced');
    }, opts.watchMs);
  };
  watchFile(opts.file, { interval: opts.watchMs }, onFileChange);

  const onHup = (): void => reload('SIGHUP');
  const stop = (): void => {
    if (stopping) {
      // asked twice: no more waiting
      for (const p of live) kill(p, null);
      return;
    }
    stopping = true;
    clearInterval(watchdog);
    if (settle) clearTimeout(settle);
    unwatchFile(opts.file, onFileChange);
    for (const g of [current, pending]) if (g) clearTimers(g);
    for (const p of live) {
      if (p.state === 'ready' || p.state === 'draining') retire(p, 'stop');
      else kill(p, null);
    }
    setTimeout(() => {
      for (const p of live) kill(p, null);
    }, opts.drainMs + 2000).unref();
    if (live.size === 0) finish(exitCode);
  };
  process.on('SIGHUP', onHup);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const initial = newGeneration('start');
  pending = initial;
  for (let slot = 0; slot < opts.workers; slot++) fork(initial, slot);
  return finished.then((code) => {
    process.off('SIGHUP', onHup);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    return code;
  });
}
