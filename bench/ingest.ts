/**
 * Full-corpus ingest benchmark: wall time, database size, unchanged re-ingest
 * time and peak memory, against the targets of the ingest issue.
 * Usage: node dist/bench/ingest.js [--archive DIR] [--runs N]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { IngestReport } from '../ingest/store/runIngest.js';
import { projectRoot } from '../src/core/projectFiles.js';

const { values } = parseArgs({
  options: { archive: { type: 'string', default: '../shared/corpus' }, runs: { type: 'string', default: '1' } },
});
const root = projectRoot();
const archive = resolve(root, values.archive!);
const runs = Math.max(1, Number(values.runs));

function ingest(db: string): { report: IngestReport; wall: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin/crkb.js'), 'ingest', '--archive', archive, '--db', db, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0 && r.status !== 2) throw new Error(`ingest failed (${r.status}): ${r.stderr}`);
  return { report: JSON.parse(r.stdout) as IngestReport, wall };
}

const rows: string[][] = [];
const phaseLines: string[] = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-bench-'));
  const db = join(dir, 'crkb.db');
  try {
    const full = ingest(db);
    const size = statSync(db).size;
    phaseLines.push(`run ${i + 1} phases: ${Object.entries(full.report.phases).map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(', ')}`);
    const threads = full.report.threadCpuSeconds ?? [];
    if (threads.length > 0) phaseLines.push(`run ${i + 1} cpu by thread: main ${threads[0]!.toFixed(2)} s, others ${threads.slice(1).map((t) => t.toFixed(2)).join(' / ')} s`);
    const again = ingest(db);
    rows.push([
      String(i + 1),
      `${full.wall.toFixed(2)} s`,
      `${full.report.cpuSeconds.toFixed(1)} s`,
      `${(size / 1024 / 1024).toFixed(1)} MB`,
      `${again.wall.toFixed(2)} s`,
      `${full.report.peakRssMb} MB`,
      String(full.report.editions.length),
      String(full.report.editions.reduce((n, e) => n + e.unaccountedLines, 0)),
      String(full.report.rejected.length),
      again.report.wrote ? 'REWROTE' : 'unchanged',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const head = ['run', 'full ingest (≤10 s)', 'cpu (all threads)', 'db size (≤25 MB)', 're-ingest (≤2 s)', 'peak RSS', 'editions', 'unaccounted', 'rejected', 're-ingest db'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const fmt = (r: string[]): string => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(`corpus: ${archive}`);
console.log(fmt(head));
for (const r of rows) console.log(fmt(r));
for (const l of phaseLines) console.log(l);
