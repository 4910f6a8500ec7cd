/**
 * Diff benchmark: fresh diff time (a new process per run, nothing cached) for the
 * 2021-06-18 → 2021-07-23 and 2009-05-01 → 2009-07-11 pairs, and dangling references per edition.
 * Each process loads the database into the query layer's snapshot and warms it (timed apart: a server
 * does both once at start), then diffs: the diff column is what a running server spends on a new pair.
 * Usage: node dist/bench/diff.js [--db FILE] [--archive DIR] [--runs N]
 * Without --db a full-corpus database is built in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/core/projectFiles.js';
import { KnowledgeBase } from '../src/query/KnowledgeBase.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    archive: { type: 'string', default: '../shared/corpus' },
    runs: { type: 'string', default: '5' },
    child: { type: 'string' },
  },
});
const root = projectRoot();

if (values.child) {
  // One fresh measurement: open and warm as a server starts (buildServer: every edition's rows read),
  // resolve, diff. As `crkb diff --json` does: no word segments, rule changes only; with ",full" also
  // examples and the glossary (as the summary does).
  const [db, from, to, mode] = values.child.split(',') as [string, string, string, string | undefined];
  const t0 = performance.now();
  const kb = KnowledgeBase.open(db).warm();
  const a = kb.resolveEdition(from).edition;
  const b = kb.resolveEdition(to).edition;
  const t1 = performance.now();
  const cpu = process.cpuUsage();
  const d = kb.diff(a, b, { segments: false, rulesOnly: mode !== 'full' });
  const t2 = performance.now();
  const { user, system } = process.cpuUsage(cpu);
  kb.close();
  console.log(JSON.stringify({ importMs: t1 - t0, diffMs: t2 - t1, cpuMs: (user + system) / 1000, changes: d.counts.total }));
  process.exit(0);
}

let dir: string | null = null;
let db = values.db ? resolve(values.db) : '';
if (!db) {
  dir = mkdtempSync(join(tmpdir(), 'crkb-bench-diff-'));
  db = join(dir, 'crkb.db');
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin/crkb.js'), 'ingest', '--archive', resolve(root, values.archive), '--db', db, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0 && r.status !== 2) throw new Error(`ingest failed (${r.status}): ${r.stderr}`);
  console.log(`built ${db} in ${((performance.now() - t) / 1000).toFixed(2)} s`);
} else if (!existsSync(db)) throw new Error(`no database ${db}`);

try {
  const runs = Math.max(1, Number(values.runs));
  // CPU time of the same part (all threads) is steadier than wall time on a shared machine.
  console.log('pair                       fresh diff (≤50 ms): median / min over runs   CPU median / min    changes   snapshot load');
  for (const [from, to] of [
    ['2021-06-18', '2021-07-23'],
    ['2009-05-01', '2009-07-11'],
  ] as const) {
    for (const mode of ['json', 'full'] as const) {
      const ms: number[] = [];
      const cpuMs: number[] = [];
      let changes = 0;
      let importMs = 0;
      for (let i = 0; i < runs; i++) {
        const arg = `${db},${from},${to}${mode === 'full' ? ',full' : ''}`;
        const r = spawnSync(process.execPath, [join(root, 'dist/bench/diff.js'), '--child', arg], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(r.stderr);
        const o = JSON.parse(r.stdout) as { importMs: number; diffMs: number; cpuMs: number; changes: number };
        ms.push(o.diffMs);
        cpuMs.push(o.cpuMs);
        changes = o.changes;
        importMs = o.importMs;
      }
      const label = mode === 'json' ? `${from} → ${to}` : '  + examples, glossary';
      const stats = (xs: number[]): string => {
        xs.sort((a, b) => a - b);
        return `${xs[Math.floor(xs.length / 2)]!.toFixed(1)} ms / ${xs[0]!.toFixed(1)} ms`;
      };
      console.log(
        `${label.padEnd(25)} ${stats(ms)} (${runs} processes)`.padEnd(70) + stats(cpuMs).padEnd(20) + `${String(changes).padEnd(10)}${importMs.toFixed(0)} ms`,
      );
    }
  }
  const kb = KnowledgeBase.open(db);
  console.log('\ndangling references per edition:');
  let total = 0;
  for (const family of ['cr', 'rulings'] as const) {
    for (const e of kb.editions().filter((x) => x.family === family && x.official)) {
      const n = kb.dangling(e.id).length;
      total += n;
      console.log(`  ${family.padEnd(8)} ${e.effectiveDate}  ${n}`);
    }
  }
  console.log(`  total ${total}`);
  kb.close();
} finally {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
