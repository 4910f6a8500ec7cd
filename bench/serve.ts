/**
 * bench/serve: the API server under load on 127.0.0.1, server and load
 * generator in one run. The server runs in a child process (one core), the
 * load generator (autocannon) here (the other core).
 *
 *   node dist/bench/serve.js [--db data/crkb.db] [--duration 10] [--mixed 60] [--connections 10]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import express from 'express';
import { openReadOnlyDb } from '../src/db/openDb.js';
import { Reader } from '../src/db/Reader.js';

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
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
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
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// Child mode: a bare express app returning a constant JSON, the baseline.
if (process.argv[2] === '--baseline-child') {
  const app = express();
  app.get('/', (_req, res) => {
    res.json({ number: '702.19b', text: 'The controller of an attacking creature with trample first assigns damage.' });
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const a = server.address() as { port: number };
    console.log(`http://127.0.0.1:${a.port}`);
  });
} else {
  await main();
}

function startChild(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  return new Promise((res, rej) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) res({ child, url: m[0] });
    });
    child.once('exit', (code) => rej(new Error(`child exited with ${code}`)));
  });
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function rotating(paths: string[], base: Omit<AutocannonRequest, 'path' | 'setupRequest'> = {}): AutocannonRequest[] {
  let i = 0;
  return [{ ...base, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }];
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
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
      duration: { type: 'string', default: '10' },
      mixed: { type: 'string', default: '60' },
      connections: { type: 'string', default: '10' },
    },
  });
  const dbFile = resolve(values.db);
  if (!existsSync(dbFile)) {
    console.error(`bench/serve: ${dbFile} missing; build it with "npx crkb ingest --archive ../shared/corpus"`);
    process.exitCode = 1;
    return;
  }
  const duration = Number(values.duration);
  const mixedSeconds = Number(values.mixed);
  const connections = Number(values.connections);

  // Request material from the database itself: every rule number and keyword of the latest edition.
  const db = openReadOnlyDb(dbFile);
  const reader = new Reader(db);
  const latest = reader.resolveEdition('latest')!.edition;
  const numbers = reader.numbers(latest.id);
  const keywords = reader.keywords(latest.id).map((k) => k.name);
  const editions = reader.editions().filter((e) => e.family === 'cr' && e.official).length;
  db.close();
  const words = ['trample', 'combat damage', 'deathtouch', 'mana ability', 'state-based actions', 'copy', 'token', 'planeswalker', 'cast', 'counter'];

  const listenJs = resolve('dist/src/server/listen.js');
  const cached = await startChild([listenJs, dbFile, '0']);
  const uncached = await startChild([listenJs, dbFile, '0'], { CRKB_RESPONSE_CACHE: '0' });
  const baseline = await startChild([resolve('dist/bench/serve.js'), '--baseline-child']);
  process.on('exit', () => {
    for (const c of [cached, uncached, baseline]) c.child.kill('SIGTERM');
  });
  const idleRss = rssMb(cached.child.pid!);

  const ruleQ = 'query($n: String!) { rule(number: $n) { number text examples parent { number } } }';
  const searchQ = 'query($q: String!) { search(query: $q, first: 10) { nodes { kind snippet rule { number } } } }';
  const scenarios: Array<[string, string, AutocannonRequest[]]> = [
    ['baseline: bare express constant JSON', baseline.url, [{ path: '/' }]],
    ['/v1/rules/:number (same URL, answer cache)', cached.url, [{ path: '/v1/rules/702.19b?format=json' }]],
    ['/v1/rules/:number (every number, no cache)', uncached.url, rotating(numbers.map((n) => `/v1/rules/${n}?format=json`))],
    ['/v1/lookup keyword (same URL, answer cache)', cached.url, [{ path: '/v1/lookup?q=trample&format=text' }]],
    ['/v1/lookup keyword (every keyword, no cache)', uncached.url, rotating(keywords.map((k) => `/v1/lookup?q=${encodeURIComponent(k)}&format=text`))],
    ['GraphQL single rule (POST, uncached)', cached.url, [gqlPost(ruleQ, { n: '702.19b' })]],
    ['GraphQL single rule (GET, answer cache)', cached.url, [{ path: `/graphql?query=${encodeURIComponent(ruleQ)}&variables=${encodeURIComponent('{"n":"702.19b"}')}` }]],
    ['GraphQL search (POST, uncached, 10 queries)', cached.url, words.map((w) => gqlPost(searchQ, { q: w }))],
    ['GraphQL search (GET, answer cache, 10 queries)', cached.url, words.map((w) => ({ path: `/graphql?query=${encodeURIComponent(searchQ)}&variables=${encodeURIComponent(JSON.stringify({ q: w }))}` }))],
  ];

  console.log(`bench/serve: ${dbFile} (${editions} editions; latest ${latest.effectiveDate}: ${numbers.length} rules, ${keywords.length} keywords)`);
  console.log(`${duration} s per scenario, ${connections} connections, server idle RSS ${idleRss.toFixed(1)} MB\n`);
  console.log(`${'scenario'.padEnd(48)} ${'req/s'.padStart(8)} ${'% base'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)}`);
  let base = 0;
  for (const [name, url, requests] of scenarios) {
    const r = await autocannon({ url, connections, duration, requests });
    if (base === 0) base = r.requests.average;
    const errs = r.errors + r.timeouts + r.non2xx;
    console.log(
      `${name.padEnd(48)} ${r.requests.average.toFixed(0).padStart(8)} ${((100 * r.requests.average) / base).toFixed(0).padStart(6)}% ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${String(errs).padStart(7)}`,
    );
  }

  // Mixed load on the caching server: every endpoint, rotating inputs.
  const mixedPaths: AutocannonRequest[] = [];
  for (let i = 0; i < 400; i++) {
    const n = numbers[(i * 37) % numbers.length]!;
    const k = keywords[i % keywords.length]!;
    const w = words[i % words.length]!;
    mixedPaths.push({ path: `/v1/rules/${n}?format=${i % 2 ? 'text' : 'json'}` });
    mixedPaths.push({ path: `/v1/lookup?q=${encodeURIComponent(k)}&format=markdown` });
    mixedPaths.push(gqlPost(ruleQ, { n }));
    mixedPaths.push(gqlPost(searchQ, { q: `${w} ${k}` }));
    mixedPaths.push(gqlPost('query($n: String!) { rule(number: $n) { references { targetNumber target { number } } referencedBy { number } } }', { n }));
  }
  const before = rssMb(cached.child.pid!);
  let j = 0;
  const mixed = await autocannon({
    url: cached.url,
    connections,
    duration: mixedSeconds,
    requests: [{ setupRequest: (req) => ({ ...req, method: 'GET', headers: {}, body: undefined, ...mixedPaths[j++ % mixedPaths.length]! }) }],
  });
  const afterRss = rssMb(cached.child.pid!);
  const errs = mixed.errors + mixed.timeouts + mixed.non2xx;
  console.log(
    `\nmixed load ${mixedSeconds} s: ${mixed.requests.total} requests, ${mixed.requests.average.toFixed(0)} req/s, p50 ${mixed.latency.p50} ms, p99 ${mixed.latency.p99} ms, errors ${errs}`,
  );
  console.log(
    `server RSS: idle ${idleRss.toFixed(1)} MB, before mixed ${before.toFixed(1)} MB, after ${afterRss.toFixed(1)} MB (growth ${(((afterRss - before) / before) * 100).toFixed(1)}%)`,
  );
  process.exit(0);
}
