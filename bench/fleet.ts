/**
 * bench/fleet: crkb as a fleet on this machine. Replicas (`crkb serve --db-url`, --workers 1 each)
 * follow an artifact published to a folder that express.static serves; Debian's haproxy (the
 * README's configuration, health checks on /readyz) is in front; autocannon drives the load through
 * it.
 *
 * 1. Throughput through the same haproxy configuration in front of three replicas and of one
 *    (--duration seconds each, the order alternated over --rounds rounds so a drift in the machine's
 *    load falls on both), with the CPU time the replicas (supervisors and server processes) and
 *    haproxy used per request.
 * 2. Switch-over: under the same load through three replicas, a new build is published; printed are
 *    the requests answered during the rollout (publish → last replica serving the new hash), the
 *    failures (errors, timeouts, non-2xx) over the whole run, and when each replica switched.
 *
 *   node dist/bench/fleet.js [--db data/crkb.db] [--duration 10] [--rounds 2] [--connections 16] [--poll 2000]
 */
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { cpuMs, tree } from './processes.js';
import { startHaproxy, startReplica, staticSite, stopChild, until, type Replica } from '../test/support/fleet.js';
import { run as publish } from '../src/cli/publish.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Tracker = Promise<AutocannonResult> & { stop(): void; on(ev: 'response', f: () => void): void };
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: Array<{ setupRequest: (r: object) => object }> }) => Tracker;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'data/crkb.db' },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    poll: { type: 'string', default: '2000' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const pollMs = Number(values.poll);

// rotating answers a bot or a site asks for: rules, lookups, searches (the answer cache is on, as in production)
const NUMBERS = ['100.1', '702.19b', '509.1', '613.1', '704.5a', '120.3', '302.6', '601.2', '305.2', '903.4', '510.1c', '117.3a'];
const WORDS = ['trample', 'deathtouch', 'flying', 'hexproof', 'ward', 'cascade', 'mulligan', 'priority', 'stack', 'layers'];
const paths: string[] = [];
for (let i = 0; i < 120; i++) {
  paths.push(`/v1/rules/${NUMBERS[i % NUMBERS.length]}?format=${i % 2 ? 'text' : 'json'}`);
  paths.push(`/v1/lookup?q=${WORDS[i % WORDS.length]}&format=markdown`);
  paths.push(`/v1/search?q=${WORDS[(i * 7) % WORDS.length]}+${WORDS[(i * 3) % WORDS.length]}&format=text`);
}
const load = (url: string, seconds: number): Tracker => {
  let j = 0;
  return autocannon({ url, connections, duration: seconds, requests: [{ setupRequest: (r) => ({ ...r, method: 'GET', path: paths[j++ % paths.length]! }) }] });
};

const dir = mkdtempSync(join(tmpdir(), 'crkb-bench-fleet-'));
const site = join(dir, 'site');
const quiet = async (f: () => Promise<number>): Promise<number> => {
  const w = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  try {
    return await f();
  } finally {
    process.stdout.write = w;
  }
};
const env = { CRKB_POLL_MS: String(pollMs), CRKB_WATCH_MS: '200', CRKB_LOG_LEVEL: 'warn' };
const replicas: Replica[] = [];
const lbs: Array<Awaited<ReturnType<typeof startHaproxy>>> = [];
const server = await staticSite(site);
try {
  const dbA = resolve(values.db);
  if ((await quiet(() => publish(['--db', dbA, '--to', site]))) !== 0) throw new Error(`crkb publish refused ${dbA}`);
  const manifest = `${server.url}/current.json`;
  for (const n of ['r1', 'r2', 'r3']) replicas.push(await startReplica(n, join(dir, `${n}.db`), manifest, 1, env));
  const three = await startHaproxy(dir, replicas);
  const one = await startHaproxy(dir, replicas.slice(0, 1));
  lbs.push(three, one);
  const pids = (lb: { child: { pid?: number | undefined } }, rs: Replica[]): number[] => [lb.child.pid!, ...rs.flatMap((r) => tree(r.child.pid!))];
  const cpuOf = (p: number): number => {
    try {
      return cpuMs(p);
    } catch {
      return 0; // exited meanwhile
    }
  };
  const cpu = (ps: number[]): number => ps.reduce((s, p) => s + cpuOf(p), 0);

  console.log(`crkb fleet bench: ${values.db}, ${connections} connections, ${duration} s per run, haproxy round robin, replicas --workers 1\n`);
  const sums = { three: { rps: 0, us: 0, p99: 0, errors: 0 }, one: { rps: 0, us: 0, p99: 0, errors: 0 } };
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds; round++) {
    const order: Array<'three' | 'one'> = round % 2 ? ['one', 'three'] : ['three', 'one'];
    for (const which of order) {
      const lb = which === 'three' ? three : one;
      const ps = pids(lb, which === 'three' ? replicas : replicas.slice(0, 1));
      await load(lb.url, 1); // warm-up
      const c0 = cpu(ps);
      const r = await load(lb.url, duration);
      const s = sums[which];
      s.rps += r.requests.average / rounds;
      s.us += ((cpu(ps) - c0) * 1000) / Math.max(1, r.requests.total) / rounds;
      s.p99 = Math.max(s.p99, r.latency.p99);
      s.errors += r.errors + r.timeouts + r.non2xx;
    }
  }
  console.log(`${'behind haproxy'.padEnd(16)} ${'req/s'.padStart(8)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'cpu µs/req'.padStart(11)}`);
  for (const [label, s] of [
    ['three replicas', sums.three],
    ['one replica', sums.one],
  ] as const)
    console.log(
      `${label.padEnd(16)} ${s.rps.toFixed(0).padStart(8)} ${String(s.p99).padStart(7)} ${String(s.errors).padStart(7)} ${s.us.toFixed(0).padStart(11)}`,
    );
  console.log(`three / one: ${(sums.three.rps / sums.one.rps).toFixed(2)}x the throughput (2 cores shared with haproxy and the load generator)\n`);

  // switch-over: publish another build (the same database with one more meta row: another hash) under load
  const dbB = join(dir, 'b.db');
  copyFileSync(dbA, dbB);
  const d = new Database(dbB);
  d.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('bench_build', ?)`).run(String(Date.now()));
  d.close();
  let answered = 0;
  let atPublish = 0;
  let atConverged = 0;
  const run = load(three.url, 3600);
  run.on('response', () => answered++);
  await new Promise((r) => setTimeout(r, 3000));
  const oldHash = await replicas[0]!.db();
  if ((await quiet(() => publish(['--db', dbB, '--to', site]))) !== 0) throw new Error(`crkb publish refused ${dbB}`);
  const publishedAt = Date.now();
  atPublish = answered;
  const newHash = await until(
    async () => {
      const h = await replicas[0]!.db();
      return h !== oldHash ? h : null;
    },
    'the new build',
    300_000,
  ).catch(() => null);
  const switched = await Promise.all(
    replicas.map(async (r) => {
      await until(async () => ((await r.db()) === newHash ? true : null), `${r.name} to switch`, 300_000);
      return (Date.now() - publishedAt) / 1000;
    }),
  );
  atConverged = answered;
  const convergedS = (Date.now() - publishedAt) / 1000;
  await new Promise((r) => setTimeout(r, 3000));
  run.stop();
  const r = await run;
  console.log(`switch-over under load (three replicas, poll every ${pollMs / 1000} s):`);
  console.log(
    `  ${r.requests.total} requests in the run, ${r.errors + r.timeouts + r.non2xx} failed (errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}); ` +
      `${atConverged - atPublish} answered during the rollout`,
  );
  console.log(
    `  replicas serving the new build ${switched.map((s) => `${s.toFixed(1)} s`).join(', ')} after the publish; converged in ${convergedS.toFixed(1)} s`,
  );
} finally {
  for (const lb of lbs) await stopChild(lb.child);
  await Promise.all(replicas.map((r) => stopChild(r.child)));
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
