/**
 * bench/scale: memory, start-up and request costs as the archive grows. Builds databases of 25, 125,
 * 250 and 500 editions from a real one (bench/scaleDbs: SQL copies, dates shifted; a few seconds
 * each) in a temporary folder, and for each runs `crkb serve --workers 1` of this checkout and of
 * --baseline DIR (another built checkout) in turn, printing side by side:
 *   start     wall time from spawn to serving, and CPU time of the server process until then; then
 *             "settled": its CPU time once it is idle (what it reads in the background after it serves
 *             included: it waits until the process uses under 2 % of a core for a second, at most 60 s);
 *   idle RSS  of the server process once settled (its heavy worker thread included), MB;
 *   heap      V8 heap of its main thread after its last collection at start (--trace-gc), MB, and the
 *             largest heap seen before a collection while starting, as a share of its limit (96 MB);
 *   reload    a SIGHUP: wall time until the new process serves, the new process's peak heap (share of
 *             its limit) and the largest RSS of the whole service meanwhile (old and new process);
 *   lookup, search, diff: server CPU per request (ms) over --requests distinct requests of each kind
 *             (the answer cache never hits): /v1/lookup of rule numbers, /v1/search of words, and the
 *             web page of a neighbouring diff, each in rotating editions: the newest 25 of the real
 *             database, which every size holds (--files: of the CR); the diff made before (in the
 *             background, or asked first in another view), as a running server answers it;
 *   fresh diff: the page of a diff made for that request (editions two apart), CPU ms.
 *             Requests ask for no compression (Accept-Encoding: identity, as bench/serve's load does): the
 *             rows are the answer's cost, not gzip's (which fetch would otherwise ask for, and which adds
 *             up to 10 ms to a 300 KB diff page when the answer cache is off).
 * Then the CLI against the floor (node, a better-sqlite3 open and one query), CPU ms per process,
 * median over --runs interleaved rounds: `crkb rule`, `crkb history`, a neighbouring `crkb diff`, `crkb search`, for both checkouts.
 *
 * --files A.db,B.db measures those databases as they are (e.g. the corpus alone and every family)
 * instead of synthetic sizes; --runs 0 skips the CLI rows.
 *
 *   node dist/bench/scale.js [--db data/crkb.db] [--baseline DIR] [--sizes 25,125,250,500] [--files A.db,B.db] [--requests 30] [--runs 5]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './benchArgs.js';
import Database from 'better-sqlite3';
import { projectRoot } from '../src/core/projectFiles.js';
import { cpuMs, floorScript, interleavedCpu, rssMb, sleep, stopChild, tree } from './processes.js';
import { makeScaleDb } from './scaleDbs.js';

const USAGE = `Usage: node dist/bench/scale.js [--db data/crkb.db] [--baseline DIR] [--sizes 25,125,250,500] [--files A.db,B.db]
       [--requests 30] [--runs 5] [--heap-limit 96]
(see the comment at the top of bench/scale.ts for what each does)`;

const values = benchArgs('scale', USAGE, {
  db: { type: 'string', default: 'data/crkb.db' },
  baseline: { type: 'string' },
  sizes: { type: 'string', default: '25,125,250,500' },
  files: { type: 'string' },
  requests: { type: 'string', default: '30' },
  runs: { type: 'string', default: '5' },
  'heap-limit': { type: 'string', default: '96' },
  help: { type: 'boolean', short: 'h', default: false },
});
const root = projectRoot();
const source = resolve(values.db);
const checkouts: Array<[string, string]> = [['this', root], ...(values.baseline ? [['baseline', resolve(values.baseline)] as [string, string]] : [])];
const heapLimit = Number(values['heap-limit']);
// Requests go to the newest 25 editions of the real database (present at every size: a synthetic copy
// of an old edition answers differently, and the rows would compare different answers, not sizes).
const lastReal = (() => {
  const ro = new Database(source, { readonly: true });
  try {
    return ro.prepare(`SELECT max(effective_date) FROM editions WHERE family = 'cr' AND official = 1`).pluck().get() as string;
  } finally {
    ro.close();
  }
})();
const requests = Number(values.requests);

/** GC lines of --trace-gc: "[pid:0xISOLATE]  123 ms: Scavenge 12.3 (15.0) -> 11.0 (16.0) MB, …", by pid. */
function gcStats(log: string, pid: number): { peak: number; last: number } {
  let peak = 0;
  let last = 0;
  let main: string | null = null;
  for (const m of log.matchAll(
    /\[(\d+):(0x[0-9a-f]+)\][^\n]*?: (?:Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact)[^\n]*? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/g,
  )) {
    if (Number(m[1]) !== pid) continue;
    // the main thread's isolate is the first to collect
    main ??= m[2]!;
    if (m[2] !== main) continue;
    peak = Math.max(peak, Number(m[3]));
    last = Number(m[4]);
  }
  return { peak, last };
}

interface Served {
  stop(): Promise<void>;
  url: string;
  server: () => number;
  log: () => string;
  supervisor: number;
}

/** `crkb serve --workers 1` of a checkout with --trace-gc (passed on to its server process). */
function serve(checkout: string, db: string): Promise<Served & { startMs: number; startCpu: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--trace-gc', join(checkout, 'bin/crkb.js'), 'serve', '--db', db, '--port', '0', '--workers', '1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: checkout,
    env: { ...process.env, CRKB_START_MS: '600000', CRKB_HANG_MS: '60000' },
  });
  process.once('exit', () => child.kill('SIGTERM'));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const server = (): number => {
    const kids = tree(child.pid!).filter((p) => p !== child.pid);
    return kids[kids.length - 1] ?? child.pid!;
  };
  return new Promise((res, rej) => {
    const onData = (): void => {
      const m = /GraphQL\s+(http:\/\/\S+)\/graphql/.exec(out);
      if (!m) return;
      child.stdout.off('data', onData);
      const startMs = performance.now() - t0;
      res({ url: m[1]!, startMs, startCpu: cpuMs(server()), server, log: () => out, supervisor: child.pid!, stop: () => stopChild(child) });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => rej(new Error(`crkb serve exited with ${code}: ${out.slice(-300)}`)));
    // a server that runs out of memory at start is restarted forever: give up on it
    setTimeout(() => {
      if (/GraphQL\s+http/.test(out)) return;
      const oom = /heap out of memory/.test(out);
      void stopChild(child).then(() => rej(new Error(oom ? 'out of memory at start (restarted, never served)' : 'not serving after 120 s')));
    }, 120_000).unref();
  });
}

/** Server CPU per request, ms, over distinct GETs; `warm` are asked first, unmeasured. */
async function perRequest(s: Served, paths: string[], warm: string[] = []): Promise<number> {
  const pid = s.server();
  // one request first (and `warm`): what a first request builds (a search index, a diff's editions) is not the steady cost
  const headers = { 'accept-encoding': 'identity' };
  for (const p of [...warm, paths[0]!]) await (await fetch(s.url + p, { headers })).arrayBuffer();
  const c0 = cpuMs(pid);
  for (const p of paths.slice(1)) {
    const r = await fetch(s.url + p, { headers });
    await r.arrayBuffer();
    if (r.status >= 500) throw new Error(`${p}: ${r.status}`);
  }
  return (cpuMs(pid) - c0) / (paths.length - 1);
}

const pad = (x: string, n: number): string => x.padEnd(n);
const f1 = (x: number): string => x.toFixed(1);

async function measure(checkout: string, db: string, editions: string[]): Promise<string[]> {
  const s = await serve(checkout, db);
  try {
    const pid = s.server();
    // settled: under 20 ms of CPU in a second (what it reads once serving is done)
    let settled = cpuMs(pid);
    for (let i = 0; i < 60; i++) {
      await sleep(1000);
      const now = cpuMs(pid);
      const quiet = now - settled < 20;
      settled = now;
      if (quiet) break;
    }
    const rss = rssMb(pid);
    const g = gcStats(s.log(), pid);
    // requests over the newest editions, rotating: lookups of rule numbers, searches of words, neighbouring diffs
    const n = requests;
    const newest = editions.filter((d) => d <= lastReal).slice(-25);
    const numbers = ['702.19b', '100.1', '601.2a', '704.5g', '510.1c', '702.2c', '305.1', '117.3a', '613.1f', '122.1'];
    const words = ['trample', 'deathtouch', 'combat damage', 'mana ability', 'token', 'sacrifice', 'priority', 'stack', 'library', 'graveyard'];
    const lookup = await perRequest(
      s,
      Array.from({ length: n }, (_, k) => `/v1/lookup?q=${encodeURIComponent(numbers[k % numbers.length]!)}&edition=${newest[k % newest.length]}`),
    );
    const search = await perRequest(
      s,
      Array.from({ length: n }, (_, k) => `/v1/search?q=${encodeURIComponent(words[k % words.length]!)}&edition=${newest[(k * 7) % newest.length]}`),
      // each edition's search index built first (a word not measured): the rows are the steady cost, not where the groups fall
      newest.map((e) => `/v1/search?q=rules&edition=${e}`),
    );
    // neighbouring diffs as a running server answers them: made in the background at start, or asked once
    // before. Which neighbours the background makes (newest first, until its cache is three quarters full)
    // depends on the size: at 500 editions the real ones asked here are not among them, so each is first
    // asked in another view (the side by side one: another answer to cache, the same diff), unmeasured.
    const neighbours = Array.from({ length: Math.min(n, newest.length - 1) }, (_, k) => `/diff/${newest[k]}/${newest[k + 1]}`);
    const diff = await perRequest(
      s,
      neighbours,
      neighbours.map((p) => `${p}?view=side`),
    );
    // a diff never made before at any size (editions two apart: no background makes them): alignment,
    // texts and word diffs of the changes the page lists
    const fresh = await perRequest(
      s,
      Array.from({ length: Math.min(n, newest.length - 2) }, (_, k) => `/diff/${newest[k]}/${newest[k + 2]}`),
    );
    // reload: the new process loads while the old one serves; peak RSS of the service meanwhile
    const before = new Set(tree(s.supervisor));
    const t0 = performance.now();
    let peakRss = 0;
    process.kill(s.supervisor, 'SIGHUP');
    let reloadMs = NaN;
    let newPid = 0;
    for (let i = 0; i < 6000; i++) {
      const procs = tree(s.supervisor);
      let sum = 0;
      for (const p of procs) {
        try {
          sum += rssMb(p);
        } catch {
          // gone
        }
      }
      peakRss = Math.max(peakRss, sum);
      if (/SIGHUP: serving/.test(s.log())) {
        reloadMs = performance.now() - t0;
        newPid = procs.find((p) => !before.has(p)) ?? 0;
        break;
      }
      await sleep(20);
    }
    const r = gcStats(s.log(), newPid);
    return [
      `${f1(s.startMs / 1000)} s / ${f1(s.startCpu / 1000)} s (${f1(settled / 1000)})`,
      `${rss.toFixed(0)}`,
      `${f1(g.last)} (peak ${((g.peak / heapLimit) * 100).toFixed(0)} %)`,
      `${f1(reloadMs / 1000)} s, peak ${((r.peak / heapLimit) * 100).toFixed(0)} %, ${peakRss.toFixed(0)} MB`,
      f1(lookup),
      f1(search),
      f1(diff),
      f1(fresh),
    ];
  } finally {
    await s.stop();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'crkb-bench-scale-'));
try {
  const header = [
    'editions',
    'checkout',
    'start wall / CPU (settled)',
    'idle RSS MB',
    'heap MB (start peak)',
    'reload: time, peak heap, service RSS',
    'lookup ms',
    'search ms',
    'diff ms',
    'fresh diff ms',
  ];
  const widths = [9, 10, 28, 12, 22, 38, 10, 10, 8, 14];
  console.log(header.map((h, k) => pad(h, widths[k]!)).join(''));
  const files = values.files?.split(',').map((f) => resolve(f)) ?? [];
  for (const size of files.length > 0 ? files : values.sizes.split(',').map(Number)) {
    let db: string;
    if (typeof size === 'string') db = size;
    else {
      db = join(dir, `scale-${size}.db`);
      const t = performance.now();
      makeScaleDb(source, db, size);
      console.error(`(built ${size} editions in ${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
    const ro = new Database(db, { readonly: true });
    const editions = ro.prepare(`SELECT effective_date FROM editions WHERE family = 'cr' AND official = 1 ORDER BY effective_date`).pluck().all() as string[];
    const count = ro.prepare('SELECT count(*) FROM editions').pluck().get() as number;
    ro.close();
    if (typeof size === 'string') console.error(`(${size}: ${count} editions)`);
    for (const [name, checkout] of checkouts) {
      try {
        const row = await measure(checkout, db, editions);
        console.log([String(count), name, ...row].map((c, k) => pad(c, widths[k]!)).join(''));
      } catch (e) {
        console.log([String(count), name].map((c, k) => pad(c, widths[k]!)).join('') + `failed: ${(e as Error).message}`);
      }
    }
    if (typeof size === 'number') rmSync(db, { force: true });
  }

  if (Number(values.runs) > 0) {
    // the CLI against the floor, on the real database, in interleaved rounds
    const runs = Number(values.runs);
    const floor = floorScript(dir, root, source);
    const ro = new Database(source, { readonly: true });
    const [a, b] = (
      ro.prepare(`SELECT effective_date FROM editions WHERE family = 'cr' AND official = 1 ORDER BY effective_date DESC LIMIT 2`).pluck().all() as string[]
    ).reverse();
    ro.close();
    const commands: Array<[string, string[]]> = [
      ['rule 702.19b', ['rule', '702.19b']],
      ['history 702.19b', ['history', '702.19b']],
      [`diff ${a} ${b}`, ['diff', a!, b!]],
      ['search trample', ['search', 'trample']],
    ];
    const cpu = interleavedCpu(
      [
        { label: 'floor', args: [floor], cwd: root },
        ...commands.flatMap(([label, args]) =>
          checkouts.map(([name, checkout]) => ({ label: `${name} ${label}`, args: [join(checkout, 'bin/crkb.js'), ...args, '--db', source], cwd: checkout })),
        ),
      ],
      runs,
    );
    const floorMs = cpu.get('floor')!;
    console.log(
      `\nCLI, CPU ms per process (median of ${runs}, interleaved) on ${source}; floor (node + better-sqlite3 open + one query): ${floorMs.toFixed(0)} ms`,
    );
    console.log(pad('command', 34) + checkouts.map(([n]) => pad(`${n} ms (x floor)`, 22)).join(''));
    for (const [label] of commands) {
      const cells = checkouts.map(([name]) => {
        const ms = cpu.get(`${name} ${label}`)!;
        return pad(`${ms.toFixed(0)} (${(ms / floorMs).toFixed(2)}x)`, 22);
      });
      console.log(pad(label, 34) + cells.join(''));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
