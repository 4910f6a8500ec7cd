/** Process helpers the benches share: `crkb serve` as a user runs it, and what /proc says of its processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

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
