import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import express from 'express';
import { projectRoot } from '../../src/core/projectFiles.js';

/** Debian's haproxy (.ci/run installs it when missing). */
const HAPROXY = '/usr/sbin/haproxy';

/** Resolves after ms milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A port free right now on 127.0.0.1 (haproxy is told a port; it cannot report one it picked). */
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
  });
}

/** Polls f until it returns a value other than null (errors count as null), or throws after ms. */
export async function until<T>(f: () => Promise<T | null> | T | null, what: string, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await Promise.resolve()
      .then(f)
      .catch(() => null);
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** A folder served over HTTP by express.static (ETag, If-None-Match → 304): the artifact server. */
export async function staticSite(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use(express.static(dir, { etag: true, lastModified: false, cacheControl: false }));
  const server: Server = await new Promise((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** One `crkb serve --db-url` replica (a supervisor and its server processes). */
export interface Replica {
  name: string;
  url: string;
  child: ChildProcess;
  /** Its stdout and stderr so far. */
  log(): string;
  /** When (ms since the epoch) a chunk of its output matching re was first read, or null. */
  lineAt(re: RegExp): number | null;
  /** The sha256 its /readyz names, or null when it does not answer 200. */
  db(): Promise<string | null>;
}

/** Starts a replica following manifestUrl, its database at dbFile; resolves once it serves. */
export async function startReplica(name: string, dbFile: string, manifestUrl: string, workers: number, env: Record<string, string>): Promise<Replica> {
  const child = spawn(
    process.execPath,
    [join(projectRoot(), 'bin/crkb.js'), 'serve', '--db', dbFile, '--db-url', manifestUrl, '--port', '0', '--workers', String(workers)],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  // the supervisor stops its server processes: none is left running when the caller ends early
  const killOnExit = (): void => void child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let out = '';
  const chunks: Array<{ at: number; text: string }> = [];
  const read = (d: Buffer): void => {
    out += d.toString();
    chunks.push({ at: Date.now(), text: d.toString() });
  };
  child.stdout!.on('data', read);
  child.stderr!.on('data', read);
  const url = await until(
    () => /GraphQL\s+(http:\/\/\S+)\/graphql/.exec(out)?.[1] ?? (child.exitCode !== null ? Promise.reject(new Error('exited')) : null),
    `replica ${name} to serve`,
    120_000,
  ).catch((e: Error) => {
    child.kill('SIGTERM');
    throw new Error(`${e.message}\n${out}`);
  });
  const db = async (): Promise<string | null> => {
    const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) });
    return r.status === 200 ? ((await r.json()) as { db: string }).db : null;
  };
  const lineAt = (re: RegExp): number | null => chunks.find((c) => re.test(c.text))?.at ?? null;
  return { name, url, child, log: () => out, lineAt, db };
}

/** Stops a child process (SIGTERM) and resolves when it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  return exited;
}

/**
 * The haproxy configuration of a fleet (the README's): round robin over the replicas, each checked
 * on /readyz every 500 ms, idempotent requests retried on another replica when a connection fails
 * or closes empty; X-Crkb-Replica names the replica that answered.
 */
function haproxyConfig(port: number, replicas: Array<{ name: string; url: string }>): string {
  const servers = replicas.map((r) => `    server ${r.name} ${new URL(r.url).host} check inter 500ms fall 2 rise 1`);
  return [
    'global',
    '    maxconn 4096',
    'defaults',
    '    mode http',
    '    timeout connect 5s',
    '    timeout client 60s',
    '    timeout server 60s',
    '    option redispatch',
    'frontend crkb',
    `    bind 127.0.0.1:${port}`,
    '    default_backend replicas',
    'backend replicas',
    '    balance roundrobin',
    '    option httpchk GET /readyz',
    '    http-check expect status 200',
    '    retry-on conn-failure empty-response 503',
    '    retries 3',
    '    http-response set-header X-Crkb-Replica %[srv_name]',
    ...servers,
    '',
  ].join('\n');
}

/** haproxy in the foreground on a free port in front of the replicas; resolves once it answers through each of them. */
export async function startHaproxy(dir: string, replicas: Replica[]): Promise<{ url: string; child: ChildProcess; log(): string }> {
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: apt-get install -y haproxy (.ci/run does)`);
  const port = await freePort();
  const cfg = resolve(dir, `haproxy-${port}.cfg`);
  writeFileSync(cfg, haproxyConfig(port, replicas));
  const check = spawnSync(HAPROXY, ['-c', '-q', '-f', cfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy refused ${cfg}: ${check.stderr}${check.stdout}`);
  const child = spawn(HAPROXY, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = (): void => void child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const seen = new Set<string>();
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited: ${out}`);
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) });
      const by = r.headers.get('x-crkb-replica');
      if (r.status === 200 && by) seen.add(by);
      return seen.size === replicas.length ? true : null;
    },
    'haproxy to reach every replica',
    60_000,
  ).catch((e: Error) => {
    child.kill('SIGTERM');
    throw new Error(`${e.message}\n${out}`);
  });
  return { url, child, log: () => out };
}
