/**
 * bench/soak: mixed load on loopback against one server process (answer cache off, so every
 * request is answered from the query layer), first with every request in one edition, then with
 * each request in a random one of every stored edition. Prints requests/s, p50/p99, errors and
 * the server's RSS (at start, after each phase), and the server's CPU time per request.
 *
 *   node dist/bench/soak.js [--db data/crkb.db] [--seconds 60] [--same-seconds 20] [--connections 10]
 *
 * Targets (issue "Hard to break"): 0 errors, random-edition throughput at least 50 % of
 * same-edition, p99 under 100 ms, RSS growth under 10 % over the random-edition phase.
 *
 * Then the far-diff mix (issue "Unbreakable"): 20 connections asking for far diffs and histories
 * (web pages, every pair distinct) while 2 more ask cheap questions; prints the cheap requests'
 * p99 (target under 100 ms), the costly ones' throughput and refusals (503), and RSS over the phase.
 * `--baseline DIR` runs the same mix against another built checkout's server in the same sitting.
 *
 *   node dist/bench/soak.js [--heavy-seconds 30] [--baseline /work/wt-baseline] [--only heavy]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KnowledgeBase } from '../src/query/KnowledgeBase.js';
import { cpuMs, rssMb as rss, startServe, stopChild, tree } from './processes.js';

interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  statusCodeStats?: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  non2xx: number;
}
interface Req {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | undefined;
  setupRequest?: (req: Req) => Req;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: {
  url: string;
  connections: number;
  duration: number;
  requests: Req[];
  timeout?: number;
}) => Promise<Result>;

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
    seconds: { type: 'string', default: '60' },
    'same-seconds': { type: 'string', default: '20' },
    connections: { type: 'string', default: '10' },
    'heavy-seconds': { type: 'string', default: '30' },
    baseline: { type: 'string' },
    only: { type: 'string' },
  },
});
const dbFile = resolve(values.db);
if (!existsSync(dbFile)) {
  console.error(`bench/soak: ${dbFile} missing; build it with "npx crkb ingest --archive ../shared/corpus"`);
  process.exit(1);
}

// Requests of every kind, each in its edition: numbers and glossary terms that edition has.
const kb = KnowledgeBase.open(dbFile);
const editions = kb.editions().filter((e) => e.family === 'cr' && e.official);
const latest = editions.at(-1)!;
const words = ['trample', 'combat damage', 'flying', 'counter', 'token', 'mana ability', 'priority', 'state-based'];
function requestsFor(e: (typeof editions)[number], k: number): Req[] {
  const numbers = kb.numbers(e.id);
  const terms = kb.glossary(e.id).map((g) => g.term);
  const n = numbers[(k * 7919) % numbers.length]!;
  const w = words[k % words.length]!;
  const t = terms.length > 0 ? terms[(k * 31) % terms.length]! : 'trample';
  const d = e.effectiveDate;
  const post = (query: string): Req => ({ method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return [
    { path: `/v1/rules/${n}?edition=${d}&format=json` },
    { path: `/v1/lookup?q=${encodeURIComponent(t)}&edition=${d}&format=text` },
    { path: `/v1/search?q=${encodeURIComponent(w)}&edition=${d}&format=text` },
    post(`{ rule(number: "${n}", edition: "${d}") { number text children { number } references { target { number } } referencedBy { number } } }`),
    post(`{ search(query: "${w}", edition: "${d}", first: 10) { nodes { snippet rule { number } } } }`),
  ];
}
const same: Req[] = [];
const random: Req[] = [];
for (let k = 0; k < 400; k++) {
  same.push(...requestsFor(latest, k));
  random.push(...requestsFor(editions[(k * 2654435761) % editions.length]!, k));
}
// Far diffs (every pair distinct: nothing is answered twice) and histories of the latest edition's rules.
const heavy: Req[] = [];
const latestNumbers = kb.numbers(latest.id);
for (let k = 0; heavy.length < 2000; k++) {
  const i = k % Math.floor(editions.length / 2);
  const j = editions.length - 1 - ((k * 7) % Math.floor(editions.length / 2));
  heavy.push({ path: `/diff/${editions[i]!.effectiveDate}/${editions[j]!.effectiveDate}?k=${k}` });
  heavy.push({ path: `/history/${latestNumbers[(k * 7919) % latestNumbers.length]!}?edition=latest&k=${k}` });
}
kb.close();

/** Starts a built checkout's server on a free port (answer cache off); resolves its URL and pid. */
function startServer(root: string): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--max-semi-space-size=4', '--max-old-space-size=96', resolve(root, 'dist/src/server/listen.js'), dbFile, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', CRKB_RESPONSE_CACHE: '0' },
  });
  return new Promise((res) => {
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) res({ url: m[0], pid: child.pid!, stop: () => child.kill('SIGTERM') });
    });
  });
}

/**
 * The far-diff mix against `crkb serve` of a checkout as a user runs it (its default processes):
 * cheap p99 while 20 connections ask for far diffs and histories; CPU and RSS of every process,
 * and how many times a server process was started again.
 */
async function heavyMix(name: string, root: string, workers: number | null): Promise<void> {
  const s = await startServe(root, dbFile, workers);
  const seconds = Number(values['heavy-seconds']);
  const samples: number[] = [];
  const all = (): number[] => tree(s.child.pid!);
  const total = (f: (pid: number) => number): number => all().reduce((a, p) => a + (Number.isFinite(f(p)) ? f(p) : 0), 0);
  const timer = setInterval(() => samples.push(total(rss)), 1000);
  const c0 = total(cpuMs);
  let h = 0;
  let c = 0;
  const [hr, cr] = await Promise.all([
    autocannon({
      url: s.url,
      connections: 20,
      duration: seconds,
      timeout: 60,
      requests: [{ setupRequest: (req) => ({ ...req, ...heavy[h++ % heavy.length]! }) }],
    }),
    autocannon({
      url: s.url,
      connections: 2,
      duration: seconds,
      timeout: 60,
      requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', headers: {}, body: undefined, ...same[c++ % same.length]! }) }],
    }),
  ]);
  clearInterval(timer);
  const cpu = total(cpuMs) - c0;
  const restarts = (s.log().match(/starting another in|starting it again/g) ?? []).length;
  await stopChild(s.child);
  const refused = hr.statusCodeStats?.['503']?.count ?? 0;
  const third = Math.max(1, Math.floor(samples.length / 3));
  const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
  console.log(`far-diff mix, ${name}:`);
  console.log(
    `  cheap (2 conns)   ${cr.requests.average.toFixed(0).padStart(6)} req/s  p50 ${String(cr.latency.p50).padStart(5)} ms  p99 ${String(cr.latency.p99).padStart(5)} ms  max ${String(cr.latency.max).padStart(5)} ms  errors ${cr.errors + cr.timeouts + cr.non2xx}`,
  );
  console.log(
    `  costly (20 conns) ${hr.requests.average.toFixed(1).padStart(6)} req/s  p50 ${String(hr.latency.p50).padStart(5)} ms  p99 ${String(hr.latency.p99).padStart(5)} ms  503 ${refused}  other errors ${hr.errors + hr.timeouts + hr.non2xx - refused}`,
  );
  console.log(
    `  server CPU ${(cpu / 1000).toFixed(1)} s in ${seconds} s; RSS MB (all processes) first third ${mean(samples.slice(0, third)).toFixed(0)}, last third ${mean(samples.slice(-third)).toFixed(0)}, max ${Math.max(...samples).toFixed(0)}; restarts ${restarts}`,
  );
}

const runHeavy = async (): Promise<void> => {
  await heavyMix('this build, crkb serve (default processes)', process.cwd(), null);
  await heavyMix('this build, crkb serve --workers 1', process.cwd(), 1);
  if (values.baseline) await heavyMix(`baseline ${values.baseline}, crkb serve`, resolve(values.baseline), null);
};
if (values.only === 'heavy') {
  await runHeavy();
  process.exit(0);
}

const server = await startServer(process.cwd());
const { url, pid } = server;
const connections = Number(values.connections);
const run = async (list: Req[], seconds: number) => {
  let i = 0;
  const c0 = cpuMs(pid);
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', headers: {}, body: undefined, ...list[i++ % list.length]! }) }],
  });
  return { r, cpuUs: ((cpuMs(pid) - c0) * 1000) / Math.max(1, r.requests.total) };
};
const row = (name: string, x: Awaited<ReturnType<typeof run>>) =>
  console.log(
    `${name.padEnd(34)} ${x.r.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(x.r.latency.p50).padStart(4)} ms  p99 ${String(x.r.latency.p99).padStart(4)} ms  errors ${x.r.errors + x.r.timeouts + x.r.non2xx}  cpu ${x.cpuUs.toFixed(0)} µs/req`,
  );

console.log(`bench/soak: ${dbFile}, ${editions.length} editions, ${connections} connections, answer cache off`);
const idle = rss(pid);
await run(same, 2); // warm-up: JIT
const a = await run(same, Number(values['same-seconds']));
row(`same edition (${latest.effectiveDate})`, a);
const before = rss(pid);
const b = await run(random, Number(values.seconds));
const afterRss = rss(pid);
row(`random editions (${editions.length})`, b);
console.log(`random / same: ${((100 * b.r.requests.average) / a.r.requests.average).toFixed(0)} % (target ≥ 50 %)`);
console.log(
  `server RSS: idle ${idle.toFixed(1)} MB, before random phase ${before.toFixed(1)} MB, after ${afterRss.toFixed(1)} MB (growth ${(((afterRss - before) / before) * 100).toFixed(1)} %, target < 10 %)`,
);
server.stop();
await runHeavy();
