/**
 * bench/serve: the API server under load on 127.0.0.1, server and load
 * generator in one run. The server runs in a child process (one core), the
 * load generator (autocannon) here (the other core). Uncached scenarios rotate
 * their input over a realistic set (every rule number, every keyword, a few
 * hundred search texts) against a server with the answer cache off; the
 * "answer cache" rows repeat one URL against the caching server. The web rows render whole pages
 * (a rule page, a diff between consecutive editions): their cpu µs is the server-side render time.
 *
 * The mixed load runs against the real `crkb serve` (supervisor and server processes) twice, with
 * one server process (--workers 1) and with the default (one per core), side by side; then the
 * default again with a SIGHUP: --reload seconds of load before it, the reload, the old processes
 * draining and --reload seconds more; requests that failed, and the time from the signal to the new
 * processes serving.
 *
 * With --baseline DIR (another built checkout; may be given more than once), its `crkb serve` (no
 * --workers before this one) runs the same mixed load and reload, side by side; and its server (its
 * dist/src/server/listen.js on DIR/data/crkb.db when DIR has one, else on --db, answer cache off)
 * answers every "no cache" scenario too: each such scenario then runs --rounds interleaved rounds,
 * this checkout and each baseline in turn (the order reversed every other round, so a drift in the
 * machine's load falls on both), and prints each server's mean req/s and cpu µs and their ratio.
 * Each scenario is printed beside the bare express app and the floor (node:http returning the same
 * bytes), measured right before it.
 *
 *   node dist/bench/serve.js [--db data/crkb.db] [--duration 10] [--mixed 60] [--reload 5] [--connections 10] [--only TEXT]... (a scenario is kept when its name contains any) [--baseline DIR]... [--rounds 2]
 *     [--node-flags="--max-semi-space-size=4 --max-old-space-size=96"]   (flags of the listen.js server processes, baseline included;
 *     the default is what `crkb serve` and `npm start` use; --only keeps the scenarios whose name contains TEXT;
 *     --mixed 0 / --reload 0 skip those parts)
 */
import type { ChildProcess } from 'node:child_process';
import { cpuMs, requireBuiltCheckouts, rssMb, settled, sleep, startListening, startServe, stopChild, tree } from './processes.js';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { benchArgs } from './benchArgs.js';
import express from 'express';
import { KnowledgeBase } from '../src/query/KnowledgeBase.js';

interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Responses by status code ("503": { count }). */
  statusCodeStats?: Record<string, { count: number }>;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | undefined;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests?: AutocannonRequest[];
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<AutocannonResult> & { stop(): void };

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Diffs the heavy thread admits at once (HeavyPool's default diff queue). */
const DIFF_QUEUE = 8;
const CONSTANT = { number: '702.19b', text: 'The controller of an attacking creature with trample first assigns damage.' };
// Child mode: a bare express app returning a constant JSON, the baseline.
const OPTIONS = {
  db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
  duration: { type: 'string', default: '10' },
  mixed: { type: 'string', default: '60' },
  connections: { type: 'string', default: '10' },
  only: { type: 'string', multiple: true },
  reload: { type: 'string', default: '5' },
  baseline: { type: 'string', multiple: true },
  rounds: { type: 'string', default: '2' },
  'node-flags': { type: 'string', default: '--max-semi-space-size=4 --max-old-space-size=96' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const USAGE = `Usage: node dist/bench/serve.js [--db data/crkb.db] [--duration 10] [--mixed 60] [--reload 5] [--connections 10]
       [--only TEXT]... [--baseline DIR]... [--rounds 2] [--node-flags="--max-semi-space-size=4 --max-old-space-size=96"]
(see the comment at the top of bench/serve.ts for what each does)`;

if (process.argv[2] === '--http-child') {
  // the floor: node:http returning the same bytes and headers as the bare express app
  const body = JSON.stringify(CONSTANT);
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      etag: `W/"${Buffer.byteLength(body).toString(16)}-x"`,
    });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    const a = server.address() as { port: number };
    console.log(`http://127.0.0.1:${a.port}`);
  });
} else if (process.argv[2] === '--baseline-child') {
  const app = express();
  app.get('/', (_req, res) => {
    res.json(CONSTANT);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const a = server.address() as { port: number };
    console.log(`http://127.0.0.1:${a.port}`);
  });
} else {
  await main();
}

function startChild(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  return startListening(args, env);
}

function rotating(paths: string[], base: Omit<AutocannonRequest, 'path' | 'setupRequest'> = {}): AutocannonRequest[] {
  let i = 0;
  return [{ ...base, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }];
}

function rotatingBodies(bodies: string[]): AutocannonRequest[] {
  let i = 0;
  return [
    {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length]! }),
    },
  ];
}

function gqlPost(query: string, variables: Record<string, unknown>): AutocannonRequest {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  };
}

async function main(): Promise<void> {
  const values = benchArgs('serve', USAGE, OPTIONS);
  const dbFile = resolve(values.db);
  if (!existsSync(dbFile)) {
    console.error(`bench/serve: ${dbFile} missing; build it with "npx crkb ingest --archive ../shared/corpus"`);
    process.exitCode = 1;
    return;
  }
  const duration = Number(values.duration);
  const mixedSeconds = Number(values.mixed);
  const reloadSeconds = Number(values.reload);
  const connections = Number(values.connections);
  const rounds = Math.max(1, Number(values.rounds));
  const baselines = values.baseline ?? [];

  // Request material from the database itself: every rule number and keyword of the latest edition.
  const reader = KnowledgeBase.open(dbFile);
  const latest = reader.resolveEdition('latest').edition;
  const numbers = reader.numbers(latest.id);
  const keywords = reader.keywords(latest.id).map((k) => k.name);
  const glossaryTerms = reader.glossary(latest.id).map((g) => g.term);
  const official = reader.editions().filter((e) => e.family === 'cr' && e.official);
  const editions = official.length;
  // Web pages: every rule (not subrule: a subrule's page is a small part of its rule's) and every neighbour diff.
  const rulePages = numbers.filter((n) => /^\d+\.\d+$/.test(n)).map((n) => `/cr/${latest.effectiveDate}/${n}`);
  const neighbourDiffs = official.slice(1).map((e, k) => `/diff/${official[k]!.effectiveDate}/${e.effectiveDate}`);
  const sectionPages = numbers.filter((n) => /^\d{3}$/.test(n)).map((n) => `/cr/${latest.effectiveDate}/${n}`);
  // histories of rules (not subrules): the title rules (702.19 "Trample") follow their subtree
  const historyPages = numbers.filter((n) => /^\d+\.\d+$/.test(n)).map((n) => `/history/${n}?edition=${latest.effectiveDate}`);
  reader.close();
  const words = ['trample', 'combat damage', 'deathtouch', 'mana ability', 'state-based actions', 'copy', 'token', 'planeswalker', 'cast', 'counter'];
  // What people search for: keyword names, glossary terms and common phrases (deduplicated).
  const searches = [...new Set([...words, ...keywords, ...glossaryTerms].map((w) => w.toLowerCase()))];

  const flags = values['node-flags'].split(/\s+/).filter((f) => f !== '');
  const listenJs = resolve('dist/src/server/listen.js');
  requireBuiltCheckouts('serve', baselines);
  const cached = await startChild([...flags, listenJs, dbFile, '0']);
  const uncached = await startChild([...flags, listenJs, dbFile, '0'], { CRKB_RESPONSE_CACHE: '0' });
  const baseline = await startChild([...flags, resolve('dist/bench/serve.js'), '--baseline-child']);
  const http = await startChild([...flags, resolve('dist/bench/serve.js'), '--http-child']);
  // other checkouts' servers, answer cache off, each on its own database when it has one
  const others: Array<{ label: string; child: ChildProcess; url: string }> = [];
  for (const dir of baselines) {
    const own = resolve(dir, 'data/crkb.db');
    const c = await startChild([...flags, resolve(dir, 'dist/src/server/listen.js'), existsSync(own) ? own : dbFile, '0'], { CRKB_RESPONSE_CACHE: '0' });
    others.push({ label: dir, ...c });
  }
  // A server reads some editions and its words after it starts serving: the first scenario would pay for them.
  await settled([cached, uncached, ...others].map((c) => c.child.pid!));
  const idleRss = rssMb(cached.child.pid!);
  const idleRssUncached = rssMb(uncached.child.pid!);
  const peak = new Map<number, number>();
  const sampler = setInterval(() => {
    for (const c of [cached, uncached]) {
      const pid = c.child.pid!;
      peak.set(pid, Math.max(peak.get(pid) ?? 0, rssMb(pid)));
    }
  }, 250);

  const ruleQ = 'query($n: String!) { rule(number: $n) { number text examples parent { number } } }';
  const searchQ = 'query($q: String!) { search(query: $q, first: 10) { nodes { kind snippet rule { number } } } }';
  // a fixed shuffle, so consecutive requests do not walk the document in order
  const spread = <T>(xs: T[]) =>
    xs
      .map((x, i) => [x, (i * 7919) % xs.length] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([x]) => x);
  // [name, server, requests, connections (default --connections)]
  const scenarios: Array<[string, string, AutocannonRequest[], number?]> = [
    ['baseline: bare express constant JSON', baseline.url, [{ path: '/' }]],
    [`/v1/rules/:number (${numbers.length} numbers, no cache)`, uncached.url, rotating(spread(numbers).map((n) => `/v1/rules/${n}?format=json`))],
    ['/v1/rules/:number (same URL, answer cache)', cached.url, [{ path: '/v1/rules/702.19b?format=json' }]],
    [
      `/v1/lookup keyword (${keywords.length} keywords, no cache)`,
      uncached.url,
      rotating(spread(keywords).map((k) => `/v1/lookup?q=${encodeURIComponent(k)}&format=text`)),
    ],
    ['/v1/lookup keyword (same URL, answer cache)', cached.url, [{ path: '/v1/lookup?q=trample&format=text' }]],
    [
      `GraphQL single rule (POST, ${numbers.length} numbers)`,
      uncached.url,
      rotatingBodies(spread(numbers).map((n) => JSON.stringify({ query: ruleQ, variables: { n } }))),
    ],
    [
      'GraphQL single rule (GET, answer cache)',
      cached.url,
      [{ path: `/graphql?query=${encodeURIComponent(ruleQ)}&variables=${encodeURIComponent('{"n":"702.19b"}')}` }],
    ],
    [
      `GraphQL search (POST, ${searches.length} texts)`,
      uncached.url,
      rotatingBodies(spread(searches).map((q) => JSON.stringify({ query: searchQ, variables: { q } }))),
    ],
    [
      `/v1/search (${searches.length} texts, no cache)`,
      uncached.url,
      rotating(spread(searches).map((q) => `/v1/search?q=${encodeURIComponent(q)}&format=json`)),
    ],
    [`web rule page /cr/DATE/NUMBER (${rulePages.length} rules, no cache)`, uncached.url, rotating(spread(rulePages))],
    // at most as many connections as the heavy thread admits diffs (8, HeavyPool): more are refused with 503 busy at once,
    // and the row would count refusals, not diffs
    [
      `web neighbour diff /diff/A/B (${neighbourDiffs.length} pairs, no cache, ≤8 conn.)`,
      uncached.url,
      rotating(spread(neighbourDiffs)),
      Math.min(connections, DIFF_QUEUE),
    ],
    [`web section page /cr/DATE/NNN (${sectionPages.length} sections, no cache)`, uncached.url, rotating(spread(sectionPages))],
    [
      `web search page /search?q= (${searches.length} texts, no cache)`,
      uncached.url,
      rotating(spread(searches).map((q) => `/search?${new URLSearchParams({ q, edition: 'latest' })}`)),
    ],
    [`web history page /history/NUMBER (${historyPages.length} rules, no cache)`, uncached.url, rotating(spread(historyPages))],
    // one connection: the latency is the page's time on the server, no queueing behind other requests
    [`web rule page, 1 connection (no cache)`, uncached.url, rotating(spread(rulePages)), 1],
    [`web neighbour diff, 1 connection (no cache)`, uncached.url, rotating(spread(neighbourDiffs)), 1],
    ['web rule page (same URL, answer cache)', cached.url, [{ path: `/cr/${latest.effectiveDate}/702.19` }]],
    [
      'GraphQL search (GET, answer cache, 10 texts)',
      cached.url,
      words.map((w) => ({ path: `/graphql?query=${encodeURIComponent(searchQ)}&variables=${encodeURIComponent(JSON.stringify({ q: w }))}` })),
    ],
  ];

  console.log(`bench/serve: ${dbFile} (${editions} editions; latest ${latest.effectiveDate}: ${numbers.length} rules, ${keywords.length} keywords)`);
  console.log(`${duration} s per scenario, ${connections} connections; "no cache" rows rotate their inputs on a server with the answer cache off;`);
  console.log('% base: req/s against the baseline run just before the scenario (printed above it);');
  console.log('cpu µs: server CPU time per request; cpu base: baseline cpu µs / scenario cpu µs (req/s one server core would give, relative)');
  console.log('errors: failed requests and non-2xx answers; "503 busy" ones were refused by a costly kind\'s admission limit (a diff queues');
  console.log('at most 8 requests: with more connections the rest are turned away at once, by design, and their cpu µs counts the refusals)');
  if (flags.length > 0) console.log(`server processes run with node ${flags.join(' ')}`);
  console.log(`server idle RSS ${idleRss.toFixed(1)} MB (answer cache on), ${idleRssUncached.toFixed(1)} MB (off)\n`);
  console.log(
    `${'scenario'.padEnd(52)} ${'req/s'.padStart(8)} ${'% base'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'cpu µs'.padStart(8)} ${'cpu base'.padStart(8)}`,
  );
  // The machine is shared and its speed drifts: every scenario is compared with a baseline run right before it.
  // Server CPU per request is printed too: it depends much less on what else the machine runs.
  const [baseName, baseUrl, baseRequests] = scenarios[0]!;
  const pidOf = new Map([cached, uncached, baseline, http, ...others].map((c) => [c.url, c.child.pid!]));
  const measure = async (url: string, requests: AutocannonRequest[], conns = connections) => {
    const pid = pidOf.get(url)!;
    // what the last run left running (autocannon drops its requests in flight, the server finishes them) ends first:
    // a diff server's admission limit would otherwise refuse the next run's first requests (a storm of quick 503s,
    // counted as cheap requests), and its CPU would be counted for this run
    await settled([pid]);
    const c0 = cpuMs(pid);
    const r = await autocannon({ url, connections: conns, duration, requests });
    return { r, usPerReq: ((cpuMs(pid) - c0) * 1000) / Math.max(1, r.requests.total) };
  };
  const row = (n: string, m: { r: AutocannonResult; usPerReq: number }, pct: string, cpuPct: string) => {
    const busy = m.r.statusCodeStats?.['503']?.count ?? 0;
    return `${n.padEnd(52)} ${m.r.requests.average.toFixed(0).padStart(8)} ${pct.padStart(7)} ${String(m.r.latency.p50).padStart(7)} ${String(m.r.latency.p99).padStart(7)} ${String(m.r.errors + m.r.timeouts + m.r.non2xx).padStart(7)} ${m.usPerReq.toFixed(0).padStart(8)} ${cpuPct.padStart(8)}${busy > 0 ? `  (${busy} errors: 503 busy)` : ''}`;
  };
  const sideBySide: string[] = [];
  for (const [name, url, requests, conns] of scenarios.slice(1).filter(([n]) => values.only === undefined || values.only.some((o) => n.includes(o)))) {
    // warm-up, not counted: JIT, and the edition loaded into memory (a running server has done this long ago)
    await autocannon({ url, connections: conns ?? connections, duration: 1, requests });
    const b = await measure(baseUrl, baseRequests);
    const x = await measure(url, requests, conns);
    const f = await measure(http.url, baseRequests);
    console.log(row(`  (${baseName})`, b, '100%', '100%'));
    console.log(
      row(
        '  (floor: node:http, the same bytes)',
        f,
        `${((100 * f.r.requests.average) / b.r.requests.average).toFixed(0)}%`,
        `${((100 * b.usPerReq) / f.usPerReq).toFixed(0)}%`,
      ),
    );
    console.log(row(name, x, `${((100 * x.r.requests.average) / b.r.requests.average).toFixed(0)}%`, `${((100 * b.usPerReq) / x.usPerReq).toFixed(0)}%`));
    if (url !== uncached.url || others.length === 0) continue;
    // side by side with the other checkouts: interleaved rounds, the order reversed every other round
    const servers = [{ label: 'this checkout', url }, ...others.map((o) => ({ label: o.label, url: o.url }))];
    for (const o of others) await autocannon({ url: o.url, connections: conns ?? connections, duration: 1, requests });
    const sums = servers.map(() => ({ rps: 0, us: 0, p50: 0, errors: 0, busy: 0 }));
    for (let k = 0; k < rounds; k++) {
      const order = servers.map((_, i) => i);
      if (k % 2 === 1) order.reverse();
      for (const i of order) {
        const m = await measure(servers[i]!.url, requests, conns);
        sums[i]!.rps += m.r.requests.average / rounds;
        sums[i]!.us += m.usPerReq / rounds;
        sums[i]!.p50 += m.r.latency.p50 / rounds;
        sums[i]!.errors += m.r.errors + m.r.timeouts + m.r.non2xx;
        // 503: refused by the heavy kind's admission limit (more connections than its queue), not failed
        sums[i]!.busy += m.r.statusCodeStats?.['503']?.count ?? 0;
      }
    }
    sideBySide.push(`${name}`);
    for (const [i, srv] of servers.entries()) {
      const m = sums[i]!;
      const rel = i === 0 ? '' : `  this/base req/s ${((100 * sums[0]!.rps) / m.rps).toFixed(0)}%, cpu µs ${((100 * sums[0]!.us) / m.us).toFixed(0)}%`;
      const busy = m.busy > 0 ? ` (${m.busy} of them 503 busy)` : '';
      sideBySide.push(
        `  ${srv.label.padEnd(48)} ${m.rps.toFixed(0).padStart(8)} req/s ${m.p50.toFixed(1).padStart(7)} ms p50 ${m.us.toFixed(0).padStart(8)} cpu µs ${String(m.errors).padStart(5)} errors${busy}${rel}`,
      );
    }
  }
  if (sideBySide.length > 0) {
    console.log(`\nside by side, answer cache off, ${rounds} interleaved round(s) of ${duration} s each, means (cpu µs: server CPU time per request):`);
    for (const l of sideBySide) console.log(l);
  }

  // Mixed load on `crkb serve` (answer cache on): every endpoint, rotating inputs.
  const mixedPaths: AutocannonRequest[] = [];
  for (let i = 0; i < 400; i++) {
    const n = numbers[(i * 37) % numbers.length]!;
    const k = keywords[i % keywords.length]!;
    const w = searches[(i * 13) % searches.length]!;
    mixedPaths.push({ path: `/v1/rules/${n}?format=${i % 2 ? 'text' : 'json'}` });
    mixedPaths.push({ path: `/v1/lookup?q=${encodeURIComponent(k)}&format=markdown` });
    mixedPaths.push(gqlPost(ruleQ, { n }));
    mixedPaths.push(gqlPost(searchQ, { q: w }));
    mixedPaths.push({ path: `/v1/search?q=${encodeURIComponent(w)}&format=text` });
    mixedPaths.push(gqlPost('query($n: String!) { rule(number: $n) { references { targetNumber target { number } } referencedBy { number } } }', { n }));
  }
  const mixedLoad = (url: string, seconds: number) => {
    let j = 0;
    return autocannon({
      url,
      connections,
      duration: seconds,
      requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', headers: {}, body: undefined, ...mixedPaths[j++ % mixedPaths.length]! }) }],
    });
  };
  clearInterval(sampler);
  for (const c of [cached, uncached, baseline, ...others]) c.child.kill('SIGTERM');
  console.log(
    `\nserver peak RSS over the scenarios: ${peak.get(cached.child.pid!)?.toFixed(1)} MB (answer cache on), ${peak.get(uncached.child.pid!)?.toFixed(1)} MB (off)`,
  );
  const cores = availableParallelism();
  // [label, checkout, --workers]: this checkout with one process and with the default; the baseline's
  const runs: Array<[string, string, number | null]> = [
    ['--workers 1', '.', 1],
    [`--workers ${cores} (default)`, '.', cores],
    ...baselines.map((b) => [`baseline ${b}`, resolve(b), null] as [string, string, null]),
  ];
  if (mixedSeconds > 0) {
    console.log(`\nmixed load ${mixedSeconds} s on crkb serve (supervisor and server processes), ${connections} connections; CPU and RSS of all its processes`);
    console.log(
      `${'crkb serve'.padEnd(36)} ${'requests'.padStart(9)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'cpu µs'.padStart(7)} ${'RSS MB idle'.padStart(12)} ${'after'.padStart(6)}`,
    );
    for (const [label, checkout, workers] of runs) {
      const s = await startServe(checkout, dbFile, workers);
      const pids = tree(s.child.pid!);
      const idle = pids.reduce((a, p) => a + rssMb(p), 0);
      await mixedLoad(s.url, 1); // warm-up, not counted
      const c0 = pids.reduce((a, p) => a + cpuMs(p), 0);
      const r = await mixedLoad(s.url, mixedSeconds);
      const cpu = pids.reduce((a, p) => a + cpuMs(p), 0) - c0;
      const after = pids.reduce((a, p) => a + rssMb(p), 0);
      await stopChild(s.child);
      console.log(
        `${label.padEnd(36)} ${String(r.requests.total).padStart(9)} ${r.requests.average.toFixed(0).padStart(7)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${String(r.errors + r.timeouts + r.non2xx).padStart(7)} ${((cpu * 1000) / Math.max(1, r.requests.total)).toFixed(0).padStart(7)} ${idle.toFixed(0).padStart(12)} ${after.toFixed(0).padStart(6)}`,
      );
    }
  }
  if (reloadSeconds > 0) {
    console.log(
      `\nreload under mixed load: ${reloadSeconds} s of load, SIGHUP, load until the new database is served and the old processes are gone, ${reloadSeconds} s more`,
    );
    console.log(
      `${'crkb serve'.padEnd(36)} ${'switch s'.padStart(9)} ${'drained s'.padStart(10)} ${'requests'.padStart(9)} ${'failed'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)}`,
    );
    for (const [label, checkout, workers] of runs.filter(([, , w]) => w !== 1)) {
      const s = await startServe(checkout, dbFile, workers);
      await mixedLoad(s.url, 1);
      const before = tree(s.child.pid!).slice(1);
      const load = mixedLoad(s.url, 3600);
      await sleep(reloadSeconds * 1000);
      const hup = Date.now();
      s.child.kill('SIGHUP');
      // the line each logs when the new database is served (this one: new processes; before: in-process)
      while (!/SIGHUP: (now )?serving/.test(s.log()) && Date.now() - hup < 300_000) await sleep(50);
      const switched = (Date.now() - hup) / 1000;
      // (before, the one server process loaded the file itself: nothing to drain)
      while (workers !== null && tree(s.child.pid!).some((p) => before.includes(p)) && Date.now() - hup < 300_000) await sleep(50);
      const drained = (Date.now() - hup) / 1000;
      await sleep(reloadSeconds * 1000);
      load.stop();
      const r = await load;
      await stopChild(s.child);
      const max = (r.latency as Histogram & { max: number }).max;
      console.log(
        `${label.padEnd(36)} ${switched.toFixed(1).padStart(9)} ${drained.toFixed(1).padStart(10)} ${String(r.requests.total).padStart(9)} ${String(r.errors + r.timeouts + r.non2xx).padStart(7)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${String(max).padStart(7)}`,
      );
    }
  }
  process.exit(0);
}
