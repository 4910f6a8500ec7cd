/**
 * bench/crawl: the web app crawled as a visitor clicks through it, from the home page, one request at
 * a time over one connection, against a server with the answer cache off (every page rendered). Links
 * are followed breadth-first (same site, web pages only: no assets, API, GraphQL, feeds or downloads)
 * up to --pages pages. For each page: wall time as the client sees it and the server's CPU time (every
 * thread of its process, the heavy worker's included, from /proc/PID/task/TID/schedstat). Prints
 * the slowest pages by wall and by CPU, and every page above --limit ms that is not a far diff (a
 * diff between editions that are not neighbours: those stream or paginate, issue 23).
 *
 *   node dist/bench/crawl.js [--db data/crkb.db] [--pages 3000] [--limit 500] [--top 15]
 *     [--node-flags="--max-semi-space-size=4 --max-old-space-size=96"]   (the server's node flags, as bench/serve)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KnowledgeBase } from '../src/query/KnowledgeBase.js';
import { threadCpuMs } from './processes.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
    pages: { type: 'string', default: '3000' },
    limit: { type: 'string', default: '500' },
    top: { type: 'string', default: '15' },
    'node-flags': { type: 'string', default: '--max-semi-space-size=4 --max-old-space-size=96' },
  },
});
const dbFile = resolve(values.db);
if (!existsSync(dbFile)) {
  console.error(`bench/crawl: ${dbFile} missing; build it with "npx crkb ingest --archive ../shared/corpus"`);
  process.exit(1);
}
const maxPages = Number(values.pages);
const limitMs = Number(values.limit);
const top = Number(values.top);

// which diffs are between neighbours (consecutive official editions of a family): the rest are far
const kb = KnowledgeBase.open(dbFile);
const neighbours = new Set<string>();
for (const family of new Set(kb.editions().map((e) => e.family))) {
  const chain = kb.editions().filter((e) => e.family === family && e.official);
  for (let k = 1; k < chain.length; k++) {
    neighbours.add(`${chain[k - 1]!.effectiveDate}/${chain[k]!.effectiveDate}`);
    neighbours.add(`${chain[k]!.effectiveDate}/${chain[k - 1]!.effectiveDate}`);
  }
}
kb.close();
const farDiff = (path: string): boolean => {
  const m = /^\/diff\/([^/?]+)\/([^/?]+)/.exec(path);
  return m !== null && !neighbours.has(`${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`);
};

const flags = values['node-flags'].split(/\s+/).filter((f) => f !== '');
const child = spawn(process.execPath, [...flags, resolve('dist/src/server/listen.js'), dbFile, '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, CRKB_RESPONSE_CACHE: '0' },
});
process.on('exit', () => child.kill('SIGTERM'));
const base = await new Promise<string>((res, rej) => {
  let out: string | null = '';
  // (the server's log lines after its address are read and dropped)
  child.stdout.on('data', (d: Buffer) => {
    if (out === null) return;
    out += d.toString();
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (m) {
      out = null;
      res(m[0]);
    }
  });
  child.once('exit', (code) => rej(new Error(`server exited with ${code}`)));
});

// what is crawled: the site's pages, not its assets, API, GraphQL, feeds or published files
const SKIP = /^\/(?:assets|v1|graphql|feed|files|metrics|healthz|readyz|livez|discord|docs\/api|openapi|robots|sitemap|favicon)/;
const HREF = /href="([^"#]*)(?:#[^"]*)?"/g;
const unescape = (s: string): string =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

interface Visit {
  path: string;
  status: number;
  wallMs: number;
  cpuMs: number;
  bytes: number;
}
const seen = new Set<string>(['/']);
const queue = ['/'];
const visits: Visit[] = [];
// one warm-up request: the first answer pays for lazily built state, not a page
await (await fetch(`${base}/`)).text();
const started = performance.now();
while (queue.length > 0 && visits.length < maxPages) {
  const path = queue.shift()!;
  const c0 = threadCpuMs(child.pid!);
  const t0 = performance.now();
  const r = await fetch(base + path, { redirect: 'manual' });
  const body = await r.text();
  const wallMs = performance.now() - t0;
  visits.push({ path, status: r.status, wallMs, cpuMs: threadCpuMs(child.pid!) - c0, bytes: body.length });
  const location = r.headers.get('location');
  const links = location
    ? [location]
    : (r.headers.get('content-type') ?? '').startsWith('text/html')
      ? Array.from(body.matchAll(HREF), (m) => unescape(m[1]!))
      : [];
  for (const href of links) {
    let u: URL;
    try {
      u = new URL(href, base + path);
    } catch {
      continue;
    }
    if (u.origin !== base || SKIP.test(u.pathname)) continue;
    const next = u.pathname + u.search;
    if (!seen.has(next)) {
      seen.add(next);
      queue.push(next);
    }
  }
}
const elapsed = (performance.now() - started) / 1000;
child.kill('SIGTERM');

const byStatus = new Map<number, number>();
for (const v of visits) byStatus.set(v.status, (byStatus.get(v.status) ?? 0) + 1);
const cpuTotal = visits.reduce((n, v) => n + v.cpuMs, 0);
console.log(`bench/crawl: ${dbFile}, answer cache off, 1 connection, breadth-first from /`);
console.log(
  `${visits.length} pages in ${elapsed.toFixed(0)} s (${seen.size} links seen); statuses ${[...byStatus].map(([s, n]) => `${s}: ${n}`).join(', ')}; server CPU ${(cpuTotal / visits.length).toFixed(1)} ms a page on average`,
);
if (flags.length > 0) console.log(`server process runs with node ${flags.join(' ')}`);
const row = (v: Visit): string =>
  `${v.wallMs.toFixed(0).padStart(7)} ${v.cpuMs.toFixed(0).padStart(7)} ${String(v.status).padStart(4)} ${(v.bytes / 1024).toFixed(0).padStart(6)}  ${v.path}${farDiff(v.path) ? '  (far diff)' : ''}`;
const head = `${'wall ms'.padStart(7)} ${'cpu ms'.padStart(7)} ${'st'.padStart(4)} ${'KB'.padStart(6)}  page`;
console.log(`\nslowest by wall:\n${head}`);
for (const v of [...visits].sort((a, b) => b.wallMs - a.wallMs).slice(0, top)) console.log(row(v));
console.log(`\nmost server CPU:\n${head}`);
for (const v of [...visits].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, top)) console.log(row(v));
const over = visits.filter((v) => (v.wallMs > limitMs || v.cpuMs > limitMs) && !farDiff(v.path));
const farOver = visits.filter((v) => (v.wallMs > limitMs || v.cpuMs > limitMs) && farDiff(v.path)).length;
console.log(`\npages above ${limitMs} ms (wall or CPU), far diffs aside: ${over.length}; far diffs above it: ${farOver}`);
for (const v of over) console.log(row(v));
