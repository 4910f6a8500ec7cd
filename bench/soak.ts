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
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KnowledgeBase } from '../src/query/KnowledgeBase.js';

interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
interface Req {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: Req) => Req;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (o: { url: string; connections: number; duration: number; requests: Req[] }) => Promise<Result>;

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
    seconds: { type: 'string', default: '60' },
    'same-seconds': { type: 'string', default: '20' },
    connections: { type: 'string', default: '10' },
  },
});
const dbFile = resolve(values.db!);
if (!existsSync(dbFile)) {
  console.error(`bench/soak: ${dbFile} missing; build it with "npx crkb ingest --archive ../shared/corpus"`);
  process.exit(1);
}

const rss = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const cpuMs = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};

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
kb.close();

const child = spawn(process.execPath, ['--max-semi-space-size=4', '--max-old-space-size=96', 'dist/src/server/listen.js', dbFile, '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, NODE_ENV: 'production', CRKB_RESPONSE_CACHE: '0' },
});
const url = await new Promise<string>((res) => {
  let out = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (m) res(m[0]);
  });
});
const pid = child.pid!;
const connections = Number(values.connections);
const run = async (list: Req[], seconds: number) => {
  let i = 0;
  const c0 = cpuMs(pid);
  const r = await autocannon({ url, connections, duration: seconds, requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', headers: {}, body: undefined, ...list[i++ % list.length]! }) }] });
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
console.log(`server RSS: idle ${idle.toFixed(1)} MB, before random phase ${before.toFixed(1)} MB, after ${afterRss.toFixed(1)} MB (growth ${(((afterRss - before) / before) * 100).toFixed(1)} %, target < 10 %)`);
child.kill('SIGTERM');
