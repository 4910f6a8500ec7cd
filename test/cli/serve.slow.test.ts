import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { REFUSED, writeEditionDb, writeRefusedDb } from '../support/databases.js';
import { tempDir } from '../support/tempDir.js';

/** Pids of a process's children, from /proc (field 4 of /proc/PID/stat is the parent). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs
        .readFileSync(`/proc/${d}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      if (Number(stat[1]) === pid) out.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return out.sort((a, b) => a - b);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Bounds for what should happen within seconds: generous, because CI runs this on a loaded 2-core
// machine where starting a server process can take tens of seconds; a test waits only as long as it must.
const WAIT = 120_000;

async function until<T>(f: () => Promise<T | null> | T | null, what: string): Promise<T> {
  const end = Date.now() + WAIT;
  for (;;) {
    const v = await Promise.resolve()
      .then(f)
      .catch(() => null);
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Short timings for the tests (the defaults are seconds to a minute). */
const FAST = { CRKB_HANG_MS: '1500', CRKB_RESTART_MIN_MS: '100', CRKB_RESTART_MAX_MS: '400', CRKB_WATCH_MS: '200', CRKB_DRAIN_MS: '3000' };

interface Serving {
  sv: ChildProcess;
  url: string;
  /** The supervisor's stderr so far. */
  log(): string;
  /** Its server processes now. */
  workers(): number[];
  /** Rule 100.1's text, or null when the answer is not a 200. */
  text(): Promise<string | null>;
  /** SIGTERM; resolves with the exit status. */
  stop(): Promise<number | null>;
}

/** Starts `crkb serve` (supervisor and server processes) on a database file; resolves once it serves. */
async function serve(db: string, workers: number, env: Record<string, string> = {}, onSpawn?: (sv: ChildProcess) => void): Promise<Serving> {
  const sv = spawn(process.execPath, ['bin/crkb.js', 'serve', '--db', db, '--port', '0', '--workers', String(workers)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...FAST, ...env },
  });
  let out = '';
  let err = '';
  sv.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  sv.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => sv.once('exit', (code) => r(code)));
  const stop = async () => {
    if (sv.exitCode === null && sv.signalCode === null) sv.kill('SIGTERM');
    return exited;
  };
  try {
    onSpawn?.(sv);
    const url = await until(
      () => /GraphQL\s+(http:\/\/\S+)\/graphql/.exec(out)?.[1] ?? (sv.exitCode !== null ? Promise.reject(new Error('exited')) : null),
      `crkb serve:\n${out}\n${err}`,
    );
    return {
      sv,
      url,
      log: () => err,
      workers: () => childrenOf(sv.pid!),
      async text() {
        const r = await fetch(`${url}/v1/rules/100.1?format=text`);
        const t = await r.text();
        return r.status === 200 ? t : null;
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

const count = (text: string, re: RegExp): number => text.match(new RegExp(re.source, 'g'))?.length ?? 0;

test('crkb serve picks up a database renamed into place and on SIGHUP, in new processes; a killed server process is replaced', async () => {
  const dir = tempDir('crkb-serve-');
  const db = path.join(dir, 'crkb.db');
  writeEditionDb(db, 'First text.');
  const s = await serve(db, 2);
  try {
    assert.match((await s.text())!, /First text/);
    assert.equal(s.workers().length, 2, 'two server processes');

    // an ingest renames its finished copy over the database
    writeEditionDb(path.join(dir, 'next.db'), 'Second text.');
    fs.renameSync(path.join(dir, 'next.db'), db);
    await until(async () => ((await s.text())?.includes('Second text') ? true : null), 'the renamed-in database');
    assert.match(s.log(), /database replaced: serving .*crkb\.db \(sha256 \w+\) from 2 new processes \(\d+, \d+\)/);

    // rewritten in place (same inode), then told with SIGHUP
    writeEditionDb(path.join(dir, 'other.db'), 'Third text.');
    fs.copyFileSync(path.join(dir, 'other.db'), db);
    s.sv.kill('SIGHUP');
    await until(async () => ((await s.text())?.includes('Third text') ? true : null), 'the database after SIGHUP');

    // the watcher saw the rewrite too: its reload follows the SIGHUP's (three in all)
    await until(() => (count(s.log(), /: serving /) === 3 ? true : null), 'the third reload');

    // a server process dies by a signal it was not sent: another takes its place
    const serving = [...s.log().matchAll(/from 2 new processes \((\d+), (\d+)\)/g)].at(-1)!;
    const victim = Number(serving[1]);
    process.kill(victim, 'SIGKILL');
    const restarted = new RegExp(`server process ${victim} was killed \\(SIGKILL\\); starting another in`);
    await until(() => (restarted.test(s.log()) ? true : null), 'the restart');
    assert.match((await until(() => s.text(), 'the restarted server'))!, /Third text/);
  } finally {
    assert.equal(await s.stop(), 0, 'SIGTERM stops the supervisor and its processes, exit status 0');
  }
  assert.deepEqual(childrenOf(s.sv.pid!), []);
});

test('a server process whose event loop stops (SIGSTOP) is replaced by the watchdog; the other keeps serving', async () => {
  const db = path.join(tempDir('crkb-serve-'), 'crkb.db');
  writeEditionDb(db, 'First text.');
  const s = await serve(db, 2);
  let stopped = 0;
  try {
    const [hung, other] = s.workers();
    stopped = hung!;
    process.kill(hung!, 'SIGSTOP');
    await until(() => {
      const now = s.workers();
      return now.length === 2 && !now.includes(hung!) ? true : null;
    }, 'the stopped process to be replaced');
    assert.match(s.log(), new RegExp(`server process ${hung} stopped answering \\(no heartbeat for [\\d.]+ s\\); killing it`));
    assert.ok(s.workers().includes(other!), 'the healthy process was left alone');
    assert.match((await until(() => s.text(), 'an answer'))!, /First text/);
  } finally {
    try {
      process.kill(stopped, 'SIGKILL');
    } catch {
      // replaced, as it should be
    }
    await s.stop();
  }
});

test('a crash loop is retried with doubling delays up to the cap, never given up, and the server recovers when the cause goes away', async () => {
  const db = path.join(tempDir('crkb-serve-'), 'crkb.db');
  writeEditionDb(db, 'First text.');
  const s = await serve(db, 1, { CRKB_HEALTHY_MS: '1000' });
  try {
    // the cause: every server process is killed as soon as it exists, seven times in a row
    const killed = new Set<number>();
    while (killed.size < 7) {
      for (const pid of s.workers()) {
        if (killed.has(pid)) continue;
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      }
      await sleep(10);
    }
    assert.match((await until(() => s.text(), 'the server after the crash loop'))!, /First text/);
    assert.equal(s.sv.exitCode, null, 'the supervisor is still running');
    const delays = [...s.log().matchAll(/starting another in ([\d.]+) s \(failure (\d+) in a row\)/g)].map((m) => Number(m[1]));
    assert.deepEqual(delays, [0.1, 0.2, 0.4, 0.4, 0.4, 0.4, 0.4], s.log());

    // having served a healthy stretch (CRKB_HEALTHY_MS), a failure starts the delays afresh
    await sleep(1200);
    const [pid] = s.workers();
    process.kill(pid!, 'SIGKILL');
    await until(
      () => (s.log().includes(`server process ${pid} was killed (SIGKILL); starting another in 0.1 s (failure 1 in a row)`) ? true : null),
      'the restart',
    );
    await until(() => s.text(), 'the server again');
  } finally {
    await s.stop();
  }
});

test('a SIGHUP while the server starts is a reload, not a crash', async () => {
  const db = path.join(tempDir('crkb-serve-'), 'crkb.db');
  writeEditionDb(db, 'First text.');
  let hupped = false;
  const s = await serve(db, 1, {}, (sv) => {
    // as soon as the first server process exists (it is loading the database)
    void until(() => (childrenOf(sv.pid!).length > 0 ? true : null), 'a server process').then(() => {
      sv.kill('SIGHUP');
      hupped = true;
    });
  });
  try {
    assert.ok(hupped);
    await until(() => (/SIGHUP: serving/.test(s.log()) ? true : null), 'the reload');
    assert.match((await s.text())!, /First text/);
    assert.doesNotMatch(s.log(), /killed|crashed|exited|stopped/);
    assert.equal(count(s.log(), /SIGHUP: serving/), 1);
  } finally {
    await s.stop();
  }
});

test('twenty SIGHUPs in a burst make at most two reloads, and no request fails meanwhile under steady load', async () => {
  const dir = tempDir('crkb-serve-');
  const db = path.join(dir, 'crkb.db');
  writeEditionDb(db, 'First text.');
  // file polling off: only the signals reload
  const s = await serve(db, 2, { CRKB_WATCH_MS: '600000' });
  let stop = false;
  let ok = 0;
  const failures: string[] = [];
  const load = async () => {
    while (!stop) {
      try {
        const t = await s.text();
        if (t === null) failures.push('not 200');
        else ok++;
      } catch (e) {
        failures.push(String((e as Error & { cause?: Error }).cause ?? e));
      }
    }
  };
  const clients = Array.from({ length: 6 }, load);
  try {
    writeEditionDb(path.join(dir, 'next.db'), 'Second text.');
    fs.renameSync(path.join(dir, 'next.db'), db);
    const before = s.workers();
    for (let i = 0; i < 20; i++) {
      s.sv.kill('SIGHUP');
      await sleep(25);
    }
    await until(async () => ((await s.text())?.includes('Second text') ? true : null), 'the new database');
    // the first reload, then one for every SIGHUP that arrived meanwhile
    await until(() => (count(s.log(), /SIGHUP: serving/) === 2 ? true : null), 'the follow-up reload');
    await until(() => (s.workers().length === 2 && !s.workers().some((p) => before.includes(p)) ? true : null), 'the old processes to drain');
    await sleep(1000);
    stop = true;
    await Promise.all(clients);
    assert.equal(count(s.log(), /SIGHUP: serving/), 2, s.log());
    assert.deepEqual(failures, [], `${failures.length} of ${ok + failures.length} requests failed`);
    assert.ok(ok > 0);
  } finally {
    stop = true;
    await s.stop();
  }
});

test('a corrupt, zero-edition or other-schema replacement is refused: the answers and /download stay the old verified file, even once it is deleted', async () => {
  const dir = tempDir('crkb-serve-');
  const db = path.join(dir, 'crkb.db');
  writeEditionDb(db, 'First text.');
  const original = fs.readFileSync(db);
  const sha = createHash('sha256').update(original).digest('hex');
  const s = await serve(db, 1);
  const download = async (when: string) => {
    const r = await fetch(`${s.url}/download/crkb.db`);
    assert.equal(r.status, 200, when);
    assert.equal(r.headers.get('etag'), `"${sha}"`, when);
    assert.equal(
      createHash('sha256')
        .update(Buffer.from(await r.arrayBuffer()))
        .digest('hex'),
      sha,
      `${when}: the bytes`,
    );
  };
  try {
    await download('at start');
    for (const kind of ['corrupt', 'no editions', 'other schema', 'older format'] as const) {
      const refusals = count(s.log(), /not reloading/);
      writeRefusedDb(path.join(dir, 'bad.db'), kind);
      fs.renameSync(path.join(dir, 'bad.db'), db);
      await until(() => (count(s.log(), /not reloading/) > refusals ? true : null), `the refusal of the ${kind} file`);
      const line = s
        .log()
        .split('\n')
        .filter((l) => l.includes('not reloading'))
        .at(-1)!;
      assert.ok(line.startsWith(`crkb: not reloading ${db}: `) && REFUSED[kind].test(line) && line.includes(`still serving sha256 ${sha.slice(0, 12)}`), line);
      assert.match((await s.text())!, /First text/, `answers after the ${kind} file`);
      await download(`after the ${kind} file`);
    }
    fs.rmSync(db);
    await until(() => (/is gone; still serving/.test(s.log()) ? true : null), 'the deletion noticed');
    await download('after the file was deleted');
    assert.match((await s.text())!, /First text/);
    // a good file again is served
    writeEditionDb(path.join(dir, 'good.db'), 'Fourth text.');
    fs.renameSync(path.join(dir, 'good.db'), db);
    await until(async () => ((await s.text())?.includes('Fourth text') ? true : null), 'the good file');
  } finally {
    await s.stop();
  }
});

test('a database refused at start is a clear error and exit status 1', async () => {
  const db = path.join(tempDir('crkb-serve-'), 'crkb.db');
  writeRefusedDb(db, 'no editions');
  const sv = spawn(process.execPath, ['bin/crkb.js', 'serve', '--db', db, '--port', '0', '--workers', '2'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  sv.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise((r) => sv.once('exit', r));
  assert.equal(code, 1);
  assert.match(err, new RegExp(`crkb: cannot serve ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: holds no CR editions`));
});
