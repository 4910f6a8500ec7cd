/**
 * bench/diffPages: server CPU of every neighbouring diff page, page by page. Every official neighbour pair
 * of every family (/diff/A/B for the CR and its further pages, ?page=N; /mtr/diff/A/B, /ipg/diff/A/B, /jar/diff/A/B) is asked for
 * --reps times in a row from a server (dist/src/server/listen.js, answer cache off, so each request
 * renders, as bench/serve's "no cache" rows) built on --db, once without compression (Accept-Encoding:
 * identity) and once asking for gzip; the server's CPU over those requests (/proc, each thread's schedstat: every
 * thread) divided by --reps is the page's cost. With --baseline DIR (a built checkout; repeatable) its
 * server runs on the same database and answers the same pages, interleaved page by page (the order reversed
 * every other page, so a drift in the machine's load falls on both). Prints, per server and encoding,
 * the median, p90 and max ms and the pages over 10 ms, then the --worst most costly pages side by side;
 * a page's cost is the mean of its requests' CPU (every request's, read between requests), and again
 * their median (a collection of the whole heap falls on whichever page is asked for at the time).
 *
 * With --compare, every neighbour page (and, for the CR, its side-by-side view and one section of it)
 * is fetched from each server with and without gzip, and the decompressed bytes are compared with the
 * first baseline's; prints the count compared and differing (exit 1 when any differs).
 *
 *   node dist/bench/diffPages.js [--db data/crkb.db] [--reps 10] [--worst 12] [--family cr]... [--only TEXT]... [--baseline DIR]... [--compare]
 * (--only keeps the pages whose path contains any TEXT)
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { POLICY_FAMILIES } from '../src/core/families.js';
import type { Family } from '../src/core/records.js';
import { KnowledgeBase } from '../src/query/KnowledgeBase.js';
import { benchArgs } from './benchArgs.js';
import { requireBuiltCheckouts, settled, startListening, stopChild, threadCpuMs } from './processes.js';

const OPTIONS = {
  db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
  reps: { type: 'string', default: '10' },
  worst: { type: 'string', default: '12' },
  family: { type: 'string', multiple: true },
  only: { type: 'string', multiple: true },
  baseline: { type: 'string', multiple: true },
  compare: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;
const USAGE = `Usage: node dist/bench/diffPages.js [--db data/crkb.db] [--reps 10] [--worst 12] [--family cr]... [--only TEXT]...
       [--baseline DIR]... [--compare]
(see the comment at the top of bench/diffPages.ts)`;
const TARGET_MS = 10;
/** A CR diff's page after its first: this checkout's alone (a baseline answers the whole diff there). */
const FURTHER_PAGE = /[?&]page=/;
const ENCODINGS = ['identity', 'gzip'] as const;

interface Server {
  label: string;
  child: ChildProcess;
  url: URL;
  agent: Agent;
}

async function startServer(label: string, dir: string, db: string): Promise<Server> {
  const { child, url } = await startListening([resolve(dir, 'dist/src/server/listen.js'), db, '0'], { CRKB_RESPONSE_CACHE: '0' });
  return { label, child, url: new URL(url), agent: new Agent({ keepAlive: true, maxSockets: 1 }) };
}

/** One GET: status and the body's bytes as sent. */
function get(s: Server, path: string, encoding: string): Promise<{ status: number; body: Buffer; encoding: string | undefined }> {
  return new Promise((res, rej) => {
    const req = request({ host: s.url.hostname, port: s.url.port, path, agent: s.agent, headers: { 'accept-encoding': encoding } }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode ?? 0, body: Buffer.concat(chunks), encoding: r.headers['content-encoding'] }));
      r.on('error', rej);
    });
    req.on('error', rej);
    req.end();
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

async function main(): Promise<void> {
  const values = benchArgs('diffPages', USAGE, OPTIONS);
  const db = resolve(values.db);
  if (!existsSync(db)) {
    console.error(`bench/diffPages: ${db} missing`);
    process.exit(1);
  }
  const reps = Math.max(1, Number(values.reps));
  requireBuiltCheckouts('diffPages', values.baseline ?? []);
  const families = (values.family ?? ['cr', ...POLICY_FAMILIES]) as Family[];
  const kb = KnowledgeBase.open(db);
  const pages: string[] = [];
  let pairs = 0;
  for (const f of families) {
    const chain = kb.officialEditions(f);
    for (let k = 1; k < chain.length; k++) {
      const path = `${f === 'cr' ? '' : `/${f}`}/diff/${chain[k - 1]!.effectiveDate}/${chain[k]!.effectiveDate}`;
      pairs++;
      pages.push(path);
    }
  }
  kb.close();
  if (values.only) pages.splice(0, pages.length, ...pages.filter((p) => values.only!.some((o) => p.includes(o))));

  const servers = [await startServer('this checkout', '.', db)];
  // a baseline runs on its own database when it has one (an older checkout may not read this one's schema)
  for (const dir of values.baseline ?? [])
    servers.push(await startServer(dir, dir, existsSync(resolve(dir, 'data/crkb.db')) ? resolve(dir, 'data/crkb.db') : db));
  // a server diffs every CR neighbour in the background once started: measured after that
  await settled(
    servers.map((s) => s.child.pid!),
    120,
  );
  // a CR diff's further pages, as this checkout's first page counts them (a baseline answers the whole diff at each)
  for (const path of pages.filter((p) => p.startsWith('/diff/'))) {
    const first = (await get(servers[0]!, path, 'identity')).body.toString('utf8');
    const n = Number(/Page 1 of (\d+)/.exec(first)?.[1] ?? 1);
    for (let page = 2; page <= n; page++) pages.push(`${path}?page=${page}`);
  }
  console.log(
    `bench/diffPages: ${db}, ${pairs} neighbour diffs in ${pages.length} pages (${families.join(', ')}; a CR diff's pages after its first: this checkout only), answer cache off, ${reps} requests per page and encoding`,
  );

  if (values.compare) {
    await compare(servers, pages);
  } else {
    await measure(servers, pages, reps, Number(values.worst));
  }
  for (const s of servers) {
    s.agent.destroy();
    await stopChild(s.child);
  }
}

async function measure(servers: Server[], pages: string[], reps: number, worst: number): Promise<void> {
  // ms[server][encoding][page]: the mean over the page's requests; med: their median (a collection of the
  // whole heap, tens of ms, falls on whichever page is being asked for then: the median leaves it out)
  const ms = servers.map(() => ENCODINGS.map(() => new Array<number>(pages.length).fill(0)));
  const med = servers.map(() => ENCODINGS.map(() => new Array<number>(pages.length).fill(0)));
  const size = new Array<number>(pages.length).fill(0);
  for (const [p, path] of pages.entries()) {
    const order = servers.map((_, i) => i);
    if (p % 2 === 1) order.reverse();
    for (const [e, enc] of ENCODINGS.entries()) {
      for (const i of order) {
        const s = servers[i]!;
        if (i > 0 && FURTHER_PAGE.test(path)) {
          ms[i]![e]![p] = med[i]![e]![p] = NaN;
          continue;
        }
        const first = await get(s, path, enc); // warm-up: not counted
        // a page a baseline lacks (no such route, or not in its database) is left out of its figures
        if (first.status !== 200) {
          if (i === 0) throw new Error(`${s.label} ${path}: status ${first.status}`);
          ms[i]![e]![p] = med[i]![e]![p] = NaN;
          continue;
        }
        if (i === 0 && enc === 'identity') size[p] = first.body.length;
        const pid = s.child.pid!;
        const each: number[] = [];
        for (let r = 0; r < reps; r++) {
          const c0 = threadCpuMs(pid);
          await get(s, path, enc);
          each.push(threadCpuMs(pid) - c0);
        }
        ms[i]![e]![p] = sum(each) / reps;
        med[i]![e]![p] = quantile(each, 0.5);
      }
    }
  }
  for (const [what, table] of [
    ['the mean of its requests', ms],
    ['the median of its requests', med],
  ] as const) {
    console.log(`\nserver CPU ms per page, ${what} (median, p90, max over pages; pages over ${TARGET_MS} ms), interleaved page by page`);
    for (const [e, enc] of ENCODINGS.entries()) {
      if (servers.length > 1) console.log('');
      for (const [i, s] of servers.entries()) {
        const xs = table[i]![e]!.filter((x) => !Number.isNaN(x));
        const mine = table[0]![e]!.filter((_, p) => !Number.isNaN(table[i]![e]![p]!));
        const over = xs.filter((x) => x >= TARGET_MS).length;
        const rel =
          i === 0
            ? ''
            : `  this/base over the same pages: sum ${((100 * sum(mine)) / sum(xs)).toFixed(0)}%, max ${((100 * Math.max(...mine)) / Math.max(...xs)).toFixed(0)}%`;
        console.log(
          `  ${enc.padEnd(9)} ${s.label.padEnd(24)} median ${quantile(xs, 0.5).toFixed(1).padStart(5)}  p90 ${quantile(xs, 0.9).toFixed(1).padStart(5)}  max ${Math.max(
            ...xs,
          )
            .toFixed(1)
            .padStart(5)}  over ${TARGET_MS} ms: ${String(over).padStart(3)} of ${xs.length}${rel}`,
        );
      }
    }
  }
  // the most costly pages of this checkout (either encoding, by the mean), each beside the baselines
  const cost = pages.map((_, p) => Math.max(...ENCODINGS.map((__, e) => ms[0]![e]![p]!)));
  const top = pages
    .map((_, p) => p)
    .sort((a, b) => cost[b]! - cost[a]!)
    .slice(0, worst);
  console.log(
    `\nthe ${top.length} most costly pages of this checkout, ms per page, mean (median) of its requests, identity / gzip: ${servers.map((s) => s.label).join(' | ')}`,
  );
  for (const p of top) {
    const cells = servers
      .map((_, i) => ENCODINGS.map((__, e) => `${ms[i]![e]![p]!.toFixed(1)} (${med[i]![e]![p]!.toFixed(1)})`).join(' / '))
      .map((c) => c.padStart(23));
    console.log(`  ${pages[p]!.padEnd(40)} ${(size[p]! / 1024).toFixed(0).padStart(4)} KB ${cells.join(' | ')}`);
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function compare(servers: Server[], pages: string[]): Promise<void> {
  if (servers.length < 2) {
    console.error('bench/diffPages: --compare needs a --baseline');
    process.exit(1);
  }
  let compared = 0;
  let differ = 0;
  let bytes = 0;
  const plain = async (s: Server, path: string, enc: string) => {
    const r = await get(s, path, enc);
    return { status: r.status, body: r.encoding === 'gzip' ? gunzipSync(r.body) : r.body };
  };
  for (const path of pages.filter((p) => !FURTHER_PAGE.test(p))) {
    const first = await plain(servers[1]!, path, 'identity');
    // the CR page's side-by-side view and its first section with changes, in both views
    const section = path.startsWith('/diff/') ? /data-section="([^"]+)"/.exec(first.body.toString('utf8'))?.[1] : undefined;
    const paths = path.startsWith('/diff/')
      ? [path, `${path}?view=side`, ...(section ? [`${path}?section=${section}`, `${path}?section=${section}&view=side`] : [])]
      : [path];
    for (const p of paths) {
      for (const enc of ENCODINGS) {
        const want = await plain(servers[1]!, p, enc);
        for (const s of [servers[0]!, ...servers.slice(2)]) {
          const got = await plain(s, p, enc);
          compared++;
          bytes += want.body.length;
          if (got.status !== want.status || !got.body.equals(want.body)) {
            differ++;
            if (differ <= 20) console.log(`DIFFERS ${s.label} ${p} (${enc}): ${got.status} ${got.body.length} B vs ${want.status} ${want.body.length} B`);
          }
        }
      }
    }
  }
  console.log(
    `${compared} pages compared with ${servers[1]!.label} (${(bytes / 1e6).toFixed(1)} MB decompressed): ${differ === 0 ? 'all identical' : `${differ} differ`}`,
  );
  if (differ > 0) process.exitCode = 1;
}

await main();
