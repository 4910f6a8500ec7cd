import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { doc, fixtureDb } from '../server/fixtures.js';

/** A port free right now on 127.0.0.1 (the supervised server must come back on the same one). */
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

/** Writes a one-edition database whose 100.1 reads `text`. */
function writeDb(file: string, text: string): void {
  fixtureDb(file, [doc('2021-07-23', [['100', 'General'], ['100.1', text]], [])]).close();
}

/** Pids of a process's children, from /proc (field 4 of /proc/PID/stat is the parent). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      if (Number(stat[1]) === pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function until<T>(f: () => Promise<T | null>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('crkb serve picks up a database renamed into place and on SIGHUP, and its supervisor restarts a killed server', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-serve-'));
  const db = path.join(dir, 'crkb.db');
  writeDb(db, 'First text.');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/v1/rules/100.1?format=text`;
  const supervisor = spawn(process.execPath, ['bin/crkb.js', 'serve', '--db', db, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const text = async (): Promise<string | null> => {
    const r = await fetch(url);
    return r.status === 200 ? await r.text() : null;
  };
  try {
    assert.match(await until(text, 15_000, 'the server'), /First text/);

    // an ingest renames its finished copy over the database
    writeDb(path.join(dir, 'next.db'), 'Second text.');
    fs.renameSync(path.join(dir, 'next.db'), db);
    await until(async () => ((await text())?.includes('Second text') ? true : null), 10_000, 'the renamed-in database');

    // rewritten in place (same inode), then told with SIGHUP
    const other = path.join(dir, 'other.db');
    writeDb(other, 'Third text.');
    fs.copyFileSync(other, db);
    supervisor.kill('SIGHUP');
    await until(async () => ((await text())?.includes('Third text') ? true : null), 10_000, 'the database after SIGHUP');

    // the server process dies by a signal it was not sent: the supervisor starts it again
    const [child] = childrenOf(supervisor.pid!);
    assert.ok(child !== undefined && child > 0);
    process.kill(child, 'SIGKILL');
    await until(async () => {
      const again = childrenOf(supervisor.pid!);
      return again.length > 0 && !again.includes(child) ? true : null;
    }, 10_000, 'a new server process');
    assert.match(await until(text, 15_000, 'the restarted server'), /Third text/);
    assert.equal(supervisor.exitCode, null, 'the supervisor is still running');
  } finally {
    supervisor.kill('SIGTERM');
    await new Promise((r) => supervisor.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
