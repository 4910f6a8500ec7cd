/**
 * Diff benchmark: fresh diff time (a new process per run, nothing cached) for the two newest
 * editions (neighbours), the 2021-06-18 → 2021-07-23 and 2009-05-01 → 2009-07-11 pairs, and dangling
 * references per edition. Each process loads the database into the query layer's snapshot and warms
 * it (timed apart: a server does both once at start), then diffs: the diff column is what a running
 * server spends on a new pair. With --baseline DIR (another built checkout; repeatable) the same
 * child runs that checkout's query layer, in interleaved rounds.
 * Then `crkb diff` per process (CPU ms, median of --runs interleaved rounds) of a neighbouring and a
 * far pair for this checkout and each baseline, beside the floor (node, a better-sqlite3 open and one
 * query).
 * Usage: node dist/bench/diff.js [--db FILE] [--archive DIR] [--runs N] [--baseline DIR]...
 * Without --db a full-corpus database is built in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { projectRoot } from '../src/core/projectFiles.js';
import { KnowledgeBase } from '../src/query/KnowledgeBase.js';
import { floorScript, interleavedCpu } from './processes.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    archive: { type: 'string', default: '../shared/corpus' },
    runs: { type: 'string', default: '5' },
    child: { type: 'string' },
    kb: { type: 'string' },
    baseline: { type: 'string', multiple: true },
  },
});
const root = projectRoot();

if (values.child) {
  // One fresh measurement: open and warm as a server starts (buildServer: every edition's rows read),
  // resolve, diff. As `crkb diff --json` does: no word segments, rule changes only; with ",full" also
  // examples and the glossary (as the summary does).
  const [db, from, to, mode] = values.child.split(',') as [string, string, string, string | undefined];
  const t0 = performance.now();
  // --kb DIR: that checkout's query layer
  const KB = values.kb
    ? ((await import(pathToFileURL(join(values.kb, 'dist/src/query/KnowledgeBase.js')).href)) as { KnowledgeBase: typeof KnowledgeBase }).KnowledgeBase
    : KnowledgeBase;
  const kb = KB.open(db).warm();
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
  const checkouts: Array<[string, string | null]> = [['this', null], ...(values.baseline ?? []).map((b): [string, string] => [b, resolve(b)])];
  const ro = KnowledgeBase.open(db);
  const cr = ro.editions().filter((e) => e.family === 'cr' && e.official);
  ro.close();
  const [older, newest] = [cr.at(-2)!.effectiveDate, cr.at(-1)!.effectiveDate];
  // CPU time of the same part (all threads) is steadier than wall time on a shared machine.
  console.log('pair                       checkout        fresh diff: median / min over runs   CPU median / min    changes   snapshot load');
  for (const [from, to] of [
    [older, newest],
    ['2021-06-18', '2021-07-23'],
    ['2009-05-01', '2009-07-11'],
  ] as const) {
    for (const mode of ['json', 'full'] as const) {
      const runsOf = checkouts.map(() => ({ ms: [] as number[], cpuMs: [] as number[], changes: 0, importMs: 0 }));
      for (let i = 0; i < runs; i++) {
        checkouts.forEach(([, dir], k) => {
          const arg = `${db},${from},${to}${mode === 'full' ? ',full' : ''}`;
          const r = spawnSync(process.execPath, [join(root, 'dist/bench/diff.js'), '--child', arg, ...(dir ? ['--kb', dir] : [])], { encoding: 'utf8' });
          if (r.status !== 0) throw new Error(r.stderr);
          const o = JSON.parse(r.stdout) as { importMs: number; diffMs: number; cpuMs: number; changes: number };
          const x = runsOf[k]!;
          x.ms.push(o.diffMs);
          x.cpuMs.push(o.cpuMs);
          x.changes = o.changes;
          x.importMs = o.importMs;
        });
      }
      const label = mode === 'json' ? `${from} → ${to}` : '  + examples, glossary';
      const stats = (xs: number[]): string => {
        xs.sort((a, b) => a - b);
        return `${xs[Math.floor(xs.length / 2)]!.toFixed(1)} ms / ${xs[0]!.toFixed(1)} ms`;
      };
      checkouts.forEach(([name], k) => {
        const x = runsOf[k]!;
        console.log(
          `${(k === 0 ? label : '').padEnd(25)}  ${name.slice(-14).padEnd(15)} ${stats(x.ms)} (${runs} processes)`.padEnd(80) +
            stats(x.cpuMs).padEnd(20) +
            `${String(x.changes).padEnd(10)}${x.importMs.toFixed(0)} ms`,
        );
      });
    }
  }

  // crkb diff per process against the floor
  const floorDir = mkdtempSync(join(tmpdir(), 'crkb-bench-diff-floor-'));
  try {
    const pairs: Array<[string, string]> = [
      [older, newest],
      [cr[0]!.effectiveDate, newest],
    ];
    const cpu = interleavedCpu(
      [
        { label: 'floor', args: [floorScript(floorDir, root, db)], cwd: root },
        ...pairs.flatMap(([a, b]) =>
          checkouts.map(([name, dir]) => ({
            label: `${name} ${a} ${b}`,
            args: [join(dir ?? root, 'bin/crkb.js'), 'diff', a, b, '--db', db],
            cwd: dir ?? root,
          })),
        ),
      ],
      runs,
    );
    const floor = cpu.get('floor')!;
    console.log(`\ncrkb diff, CPU ms per process (median of ${runs}, interleaved); floor (node + better-sqlite3 open + one query): ${floor.toFixed(0)} ms`);
    console.log('pair'.padEnd(26) + checkouts.map(([n]) => `${n.slice(-14)} ms (x floor)`.padEnd(28)).join(''));
    for (const [a, b] of pairs) {
      console.log(
        `${a} → ${b}`.padEnd(26) +
          checkouts
            .map(([name]) => {
              const ms = cpu.get(`${name} ${a} ${b}`)!;
              return `${ms.toFixed(0)} (${(ms / floor).toFixed(2)}x)`.padEnd(28);
            })
            .join(''),
      );
    }
  } finally {
    rmSync(floorDir, { recursive: true, force: true });
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
