/**
 * Full ingest benchmark: wall time, CPU time (all threads), peak resident memory and database size
 * of the corpus alone and of the corpus with the tournament documents (--policy), for this build
 * and, with --baseline DIR (repeatable; NAME=DIR names it), other builds of crkb (a checkout with
 * dist/ built) side by side in the same run. A build that cannot read the tournament documents (no
 * dist/ingest/parse/parsePolicy.js) gets the corpus-only row alone, and says so.
 * Each corpus+policy ingest runs cold (an empty PDF text cache, CRKB_PDF_CACHE) and, where the
 * build has that cache, warm again (a new database, the cache the cold run filled).
 * Usage: node dist/bench/ingest.js [--archive DIR] [--policy DIR] [--runs N] [--baseline [NAME=]DIR ...]
 *        [--no-corpus-only] [--reingest]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './benchArgs.js';
import { namedCheckout } from './processes.js';
import type { IngestReport } from '../ingest/store/runIngest.js';
import { projectRoot } from '../src/core/projectFiles.js';

const USAGE = `Usage: node dist/bench/ingest.js [--archive DIR] [--policy DIR] [--runs N] [--baseline [NAME=]DIR ...]
       [--no-corpus-only] [--reingest]
(see the comment at the top of bench/ingest.ts for what each does)`;

const values = benchArgs('ingest', USAGE, {
  archive: { type: 'string', default: '../shared/corpus' },
  policy: { type: 'string', default: '../shared/policy' },
  runs: { type: 'string', default: '1' },
  baseline: { type: 'string', multiple: true, default: [] },
  'no-corpus-only': { type: 'boolean', default: false },
  reingest: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
});
const root = projectRoot();
const archive = resolve(root, values.archive);
const policy = resolve(root, values.policy);
const runs = Math.max(1, Number(values.runs));

interface Build {
  name: string;
  dir: string;
  /** Whether it reads the tournament documents. */
  policy: boolean;
  /** Whether it keeps a PDF text cache (CRKB_PDF_CACHE). */
  cache: boolean;
}

function build(name: string, dir: string): Build {
  const has = (file: string): boolean => existsSync(join(dir, 'dist', file));
  return { name, dir, policy: has('ingest/parse/parsePolicy.js'), cache: has('ingest/store/pdfTextCache.js') };
}

function ingest(b: Build, inputs: string[], db: string, cacheDir: string): { report: IngestReport; wall: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(b.dir, 'bin/crkb.js'), 'ingest', '--archive', archive, ...inputs, '--db', db, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, CRKB_PDF_CACHE: cacheDir },
  });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0 && r.status !== 2) throw new Error(`${b.name}: ingest failed (${r.status}): ${r.stderr}`);
  return { report: JSON.parse(r.stdout) as IngestReport, wall };
}

/**
 * CPU seconds by thread: the ingest thread's, the two busiest other threads' (in a warm run the parse
 * worker, then a helper thread; in a cold run the thread that reads PDFs ahead, then the parse worker; the process's
 * main thread only relays progress) and the rest together (V8's helper threads: garbage collection and
 * optimizing compilation; libuv's pool: gzip of published files).
 */
function threadLine(threads: number[]): string {
  const others = threads.slice(1).sort((a, b) => b - a);
  const rest = others.slice(2);
  return (
    `ingest ${threads[0]!.toFixed(2)} s, busiest two others (warm: parse worker; cold: PDF read-ahead, parse worker) ${(others[0] ?? 0).toFixed(2)} / ${(others[1] ?? 0).toFixed(2)} s, ` +
    `${rest.length} others ${rest.reduce((a, b) => a + b, 0).toFixed(2)} s (${rest.map((t) => t.toFixed(2)).join(' / ')})`
  );
}

const builds = [
  build('this build', root),
  ...values.baseline.map((spec) => {
    const { name, dir } = namedCheckout(spec);
    return build(name, dir);
  }),
];
const rows: string[][] = [];
const phaseLines: string[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'crkb-bench-'));
try {
  for (let i = 0; i < runs; i++) {
    for (const b of builds) {
      const jobs: Array<{ corpus: string; inputs: string[]; cache: 'cold' | 'warm' | '' }> = [];
      if (!values['no-corpus-only'] || !b.policy) jobs.push({ corpus: b.policy ? 'corpus' : 'corpus (no policy support)', inputs: [], cache: '' });
      if (b.policy) {
        jobs.push({ corpus: 'corpus+policy', inputs: [policy], cache: 'cold' });
        if (b.cache) jobs.push({ corpus: 'corpus+policy', inputs: [policy], cache: 'warm' });
      }
      const cacheDir = join(tmp, `pdf-cache-${i}-${builds.indexOf(b)}`);
      for (const job of jobs) {
        const db = join(tmp, 'crkb.db');
        rmSync(db, { force: true });
        const full = ingest(b, job.inputs, db, cacheDir);
        const size = statSync(db).size;
        const again = values.reingest ? ingest(b, job.inputs, db, cacheDir) : null;
        const threads = full.report.threadCpuSeconds ?? [];
        const label = `run ${i + 1} ${b.name}, ${job.corpus}${job.cache ? ` (${job.cache})` : ''}`;
        phaseLines.push(
          `${label}: ${Object.entries(full.report.phases)
            .map(([k, v]) => `${k} ${v.toFixed(2)} s`)
            .join(', ')}` + (threads.length > 0 ? `; cpu by thread: ${threadLine(threads)}` : ''),
        );
        const families = new Map<string, number>();
        for (const e of full.report.editions) families.set(e.family, (families.get(e.family) ?? 0) + 1);
        rows.push([
          String(i + 1),
          b.name,
          job.corpus,
          job.cache || '-',
          `${full.wall.toFixed(2)} s`,
          `${full.report.cpuSeconds.toFixed(1)} s`,
          `${full.report.peakRssMb} MB`,
          `${(size / 1024 / 1024).toFixed(1)} MB`,
          [...families].map(([f, n]) => `${n} ${f}`).join(', '),
          String(full.report.editions.reduce((n, e) => n + e.unaccountedLines, 0)),
          String(full.report.rejected.length),
          again ? `${again.wall.toFixed(2)} s ${again.report.wrote ? 'REWROTE' : 'unchanged'}` : '-',
        ]);
      }
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const head = [
  'run',
  'build',
  'input',
  'pdf cache',
  'wall (<12 s)',
  'cpu (all threads)',
  'peak RSS (<350 MB)',
  'db size',
  'editions',
  'unaccounted',
  'rejected',
  're-ingest',
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const fmt = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(`corpus: ${archive}; policy: ${policy}`);
for (const b of builds) console.log(`${b.name}: ${b.dir}${b.policy ? '' : ' (reads no tournament documents: its row is the corpus alone)'}`);
console.log(fmt(head));
for (const r of rows) console.log(fmt(r));
for (const l of phaseLines) console.log(l);
