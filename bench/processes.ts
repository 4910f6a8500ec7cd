/** Process helpers the benches share: `crkb serve` as a user runs it, and what /proc says of its processes. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** A process and its children (a supervisor and its server processes), from /proc. */
export function tree(pid: number): number[] {
  const out = [pid];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (
        Number(
          readFileSync(`/proc/${d}/stat`, 'utf8')
            .replace(/^.*\) /, '')
            .split(' ')[1],
        ) === pid
      )
        out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * `crkb serve` as a user runs it (bin/crkb.js of a checkout: supervisor and server processes) on a
 * free port, with --workers unless null (a checkout from before it); resolves once it serves.
 */
export function startServe(checkout: string, dbFile: string, workers: number | null): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const args = [resolve(checkout, 'bin/crkb.js'), 'serve', '--db', dbFile, '--port', '0', ...(workers === null ? [] : ['--workers', String(workers)])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: checkout });
  // the supervisor stops its server processes: not left running when the bench ends early
  process.once('exit', () => child.kill('SIGTERM'));
  let err = '';
  let out = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((res, rej) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /GraphQL\s+(http:\/\/\S+)\/graphql/.exec(out);
      if (m) res({ child, url: m[1]!, log: () => out + err });
    });
    child.once('exit', (code) => rej(new Error(`crkb serve exited with ${code}: ${err}`)));
  });
}

/** Starts `node ARGS` (stopped when this process exits) and resolves with the first http://127.0.0.1:PORT it prints. */
export function startListening(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  // however the bench ends (a run that failed to start another server included)
  process.once('exit', () => child.kill('SIGTERM'));
  return new Promise((res, rej) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) res({ child, url: m[0] });
    });
    child.once('exit', (code) => rej(new Error(`${args.join(' ')}: exited with ${code}`)));
  });
}

/**
 * Exits 1 naming the first of `dirs` (a bench's --baseline) that is not a built crkb checkout (has no `file`,
 * by default the server's entry), before any server starts.
 */
export function requireBuiltCheckouts(bench: string, dirs: readonly string[], file = 'dist/src/server/listen.js'): void {
  for (const dir of dirs) {
    if (!existsSync(resolve(dir, file))) {
      console.error(`bench/${bench}: --baseline ${dir}: not a built crkb checkout (no ${file}; run npm run build there)`);
      process.exit(1);
    }
  }
}

/** A bench's `--baseline [NAME=]DIR`: the checkout's folder and its name (by default the folder's own). */
export function namedCheckout(spec: string): { name: string; dir: string } {
  const eq = spec.indexOf('=');
  const dir = resolve(eq > 0 ? spec.slice(eq + 1) : spec);
  return { name: eq > 0 ? spec.slice(0, eq) : basename(dir), dir };
}

/** The median of `xs` (of an even count, the upper of the middle two). */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
}

/** Resolves after ms milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Stops a child process (SIGTERM) and resolves when it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  return exited;
}

/** Resident memory of a process, MB. */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU time (user + system) a process has used, in ms. */
export function cpuMs(pid: number): number {
  // fields 14 and 15 of /proc/PID/stat, after the parenthesized command name
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

/** CPU ms a process's threads have run, from each thread's schedstat (nanoseconds: /proc/PID/stat counts 10 ms ticks). */
export function threadCpuMs(pid: number): number {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6;
}

/** Waits until the processes are idle (under 2 % of a core over half a second), at most `maxSeconds`. */
export async function settled(pids: number[], maxSeconds = 60): Promise<void> {
  const cpu = () => pids.reduce((a, p) => a + cpuMs(p), 0);
  for (let t = 0, c0 = cpu(); t < maxSeconds * 2; t++) {
    await sleep(500);
    const c1 = cpu();
    if (c1 - c0 < 10) return;
    c0 = c1;
  }
}

/** CPU ms (user + system, from its rusage) of one process running `node ARGS` in `cwd`. */
export function processCpu(args: string[], cwd: string): number {
  // bash's `time` prints the rusage to the millisecond; /usr/bin/time's %U and %S print hundredths, which made
  // the CLI rows step by 10 ms (an eighth of the floor)
  const script = 'TIMEFORMAT="%3U %3S"; time "$@"';
  const r = spawnSync('bash', ['-c', script, 'bash', process.execPath, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr.slice(-500)}`);
  const [u, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return (u! + sys!) * 1000;
}

/**
 * Median CPU ms per process of commands in interleaved rounds (each command once a round: a drift in
 * the machine's load reaches all of them alike), by label.
 */
export function interleavedCpu(commands: Array<{ label: string; args: string[]; cwd: string }>, runs: number): Map<string, number> {
  const xs = commands.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) commands.forEach((c, k) => xs[k]!.push(processCpu(c.args, c.cwd)));
  return new Map(commands.map((c, k) => [c.label, median(xs[k]!)]));
}

/** Writes the CLI's floor to `dir`/floor.mjs and returns its path: node, a better-sqlite3 open (of `root`'s package) and one query of `db`. */
export function floorScript(dir: string, root: string, db: string): string {
  const file = join(dir, 'floor.mjs');
  const sqlite = JSON.stringify(join(root, 'node_modules/better-sqlite3/lib/index.js'));
  writeFileSync(
    file,
    `import Database from ${sqlite};\nconst db = new Database(${JSON.stringify(db)}, { readonly: true });\nconsole.log(db.prepare("SELECT body FROM texts WHERE id = 1").pluck().get());\n`,
  );
  return file;
}
