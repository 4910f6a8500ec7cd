/**
 * Full-corpus ingest benchmark: wall time, CPU time (all threads), peak resident memory and
 * database size of a text-only and a text+documents ingest, plus the unchanged re-ingest time;
 * with --baseline DIR, the same for another build of crkb (a checkout with dist/ built) side by side.
 * Usage: node dist/bench/ingest.js [--archive DIR] [--runs N] [--baseline DIR]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { IngestReport } from '../ingest/store/runIngest.js';
import { projectRoot } from '../src/core/projectFiles.js';

const { values } = parseArgs({
  options: {
    archive: { type: 'string', default: '../shared/corpus' },
    runs: { type: 'string', default: '1' },
    baseline: { type: 'string' },
  },
});
const root = projectRoot();
const archive = resolve(root, values.archive);
const runs = Math.max(1, Number(values.runs));
const DOCUMENTS = 'rulesraker-documents';

/** The archive without its Word documents: a folder of links to everything else. */
function textOnlyArchive(dir: string): string {
  const out = join(dir, 'text-only');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(archive)) if (name !== DOCUMENTS) symlinkSync(join(archive, name), join(out, name));
  return out;
}

function ingest(crkb: string, corpus: string, db: string): { report: IngestReport; wall: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(crkb, 'bin/crkb.js'), 'ingest', '--archive', corpus, '--db', db, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0 && r.status !== 2) throw new Error(`ingest failed (${r.status}): ${r.stderr}`);
  return { report: JSON.parse(r.stdout) as IngestReport, wall };
}

const builds: Array<[string, string]> = [['this build', root]];
if (values.baseline) builds.push(['baseline', resolve(values.baseline)]);
const rows: string[][] = [];
const phaseLines: string[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'crkb-bench-'));
try {
  const corpora: Array<[string, string]> = [
    ['text only', textOnlyArchive(tmp)],
    ['text+documents', archive],
  ];
  for (let i = 0; i < runs; i++) {
    for (const [corpusName, corpus] of corpora) {
      for (const [build, dir] of builds) {
        const db = join(tmp, 'crkb.db');
        rmSync(db, { force: true });
        const full = ingest(dir, corpus, db);
        const size = statSync(db).size;
        const again = ingest(dir, corpus, db);
        const threads = full.report.threadCpuSeconds ?? [];
        phaseLines.push(
          `run ${i + 1} ${build}, ${corpusName}: ${Object.entries(full.report.phases)
            .map(([k, v]) => `${k} ${v.toFixed(2)} s`)
            .join(', ')}` +
            (threads.length > 0
              ? `; cpu by thread: main ${threads[0]!.toFixed(2)} s, others ${threads
                  .slice(1)
                  .map((t) => t.toFixed(2))
                  .join(' / ')} s`
              : ''),
        );
        rows.push([
          String(i + 1),
          build,
          corpusName,
          `${full.wall.toFixed(2)} s`,
          `${full.report.cpuSeconds.toFixed(1)} s`,
          `${full.report.peakRssMb} MB`,
          `${(size / 1024 / 1024).toFixed(1)} MB`,
          `${again.wall.toFixed(2)} s`,
          String(full.report.editions.length),
          String(full.report.editions.reduce((n, e) => n + e.unaccountedLines, 0)),
          String(full.report.rejected.length),
          again.report.wrote ? 'REWROTE' : 'unchanged',
        ]);
      }
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const head = [
  'run',
  'build',
  'corpus',
  'wall (≤8 s)',
  'cpu (all threads)',
  'peak RSS (≤300 MB)',
  'db size',
  're-ingest',
  'editions',
  'unaccounted',
  'rejected',
  're-ingest db',
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const fmt = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(`corpus: ${archive}`);
console.log(fmt(head));
for (const r of rows) console.log(fmt(r));
for (const l of phaseLines) console.log(l);
