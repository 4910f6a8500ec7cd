import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as publish } from '../../../src/cli/publish.js';
import { captureCli } from '../../cli/corpusDb.js';
import { writeEditionDb } from '../../support/databases.js';
import { sleep, startHaproxy, startReplica, staticSite, stopChild, until, type Replica } from '../../support/fleet.js';
import { tempDir } from '../../support/tempDir.js';

// How often a replica asks for current.json. A replica switches at most one poll after a publish, plus
// the time to download, check and load the new build: RELOAD_ALLOWANCE bounds that generously (CI is a
// loaded 2-core machine where starting a server process can take tens of seconds).
const POLL_MS = 1000;
const RELOAD_ALLOWANCE_MS = 120_000;
const FETCH_ALLOWANCE_MS = 30_000;
const FAST = { CRKB_POLL_MS: String(POLL_MS), CRKB_WATCH_MS: '200', CRKB_DRAIN_MS: '5000', CRKB_HANG_MS: '10000', CRKB_LOG_LEVEL: 'warn' };
const CLIENTS = 4;

interface Answer {
  startedAt: number;
  status: number;
  db: string | null;
  replica: string | null;
  body: string;
  error: string | null;
}

/** Steady load through the load balancer: CLIENTS loops asking for rule 100.1 until stopped. */
function load(lb: string): { answers: Answer[]; stop(): Promise<void> } {
  const answers: Answer[] = [];
  let running = true;
  const loop = async (): Promise<void> => {
    while (running) {
      const startedAt = Date.now();
      try {
        const r = await fetch(`${lb}/v1/rules/100.1`, { signal: AbortSignal.timeout(30_000) });
        answers.push({
          startedAt,
          status: r.status,
          db: r.headers.get('x-crkb-db'),
          replica: r.headers.get('x-crkb-replica'),
          body: await r.text(),
          error: null,
        });
      } catch (e) {
        answers.push({ startedAt, status: 0, db: null, replica: null, body: '', error: (e as Error).message });
      }
    }
  };
  const loops = Array.from({ length: CLIENTS }, loop);
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

test('three replicas behind haproxy follow a publish under load: all switch within the poll interval, no request fails, no answer mixes builds', async (t) => {
  const dir = tempDir('crkb-fleet-');
  const site = join(dir, 'site');
  const builds = { a: join(dir, 'a.db'), b: join(dir, 'b.db') };
  writeEditionDb(builds.a, 'Build A says this.');
  writeEditionDb(builds.b, 'Build B says this.');
  const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');
  const text: Record<string, string> = { [sha(builds.a)]: 'Build A says this.', [sha(builds.b)]: 'Build B says this.' };
  const shaA = sha(builds.a);
  const shaB = sha(builds.b);
  assert.notEqual(shaA, shaB);

  assert.equal((await captureCli(publish, builds.a, ['--to', site])).code, 0);
  const server = await staticSite(site);
  const replicas: Replica[] = [];
  let lb: Awaited<ReturnType<typeof startHaproxy>> | null = null;
  try {
    const manifest = `${server.url}/current.json`;
    replicas.push(...(await Promise.all(['r1', 'r2', 'r3'].map((n) => startReplica(n, join(dir, `${n}.db`), manifest, 1, FAST)))));
    for (const r of replicas) assert.equal(await r.db(), shaA, `${r.name} serves build A first`);
    lb = await startHaproxy(dir, replicas);

    const l = load(lb.url);
    await until(() => (l.answers.length >= 50 ? true : null), 'answers before the publish', 60_000);
    assert.equal((await captureCli(publish, builds.b, ['--to', site])).code, 0);
    const publishedAt = Date.now();
    const switched = await Promise.all(
      replicas.map(async (r) => {
        await until(async () => ((await r.db()) === shaB ? true : null), `${r.name} to serve build B`, POLL_MS + RELOAD_ALLOWANCE_MS);
        return Date.now() - publishedAt;
      }),
    );
    // each took the new artifact at its next poll (the rest of the switch is starting a server process on it)
    const fetched = replicas.map((r) => {
      const at = r.lineAt(new RegExp(`new database ${shaB.slice(0, 12)}`));
      assert.ok(at !== null, `${r.name} logged the new database: ${r.log()}`);
      return at - publishedAt;
    });
    for (const [i, ms] of fetched.entries()) assert.ok(ms <= POLL_MS + FETCH_ALLOWANCE_MS, `${replicas[i]!.name} fetched build B ${ms} ms after the publish`);
    const convergedAt = Date.now();
    // and a while on the new build: everything asked after the last switch is answered by it
    const before = l.answers.length;
    await until(() => (l.answers.length >= before + 50 ? true : null), 'answers after the switch', 60_000);
    await sleep(2 * POLL_MS);
    await l.stop();

    const failed = l.answers.filter((a) => a.status !== 200);
    assert.deepEqual(
      failed.slice(0, 5).map((a) => ({ status: a.status, error: a.error, body: a.body.slice(0, 200) })),
      [],
      `${failed.length} of ${l.answers.length} requests failed`,
    );
    for (const a of l.answers) {
      assert.ok(a.db === shaA || a.db === shaB, `X-Crkb-Db names a published build: ${a.db}`);
      assert.ok(a.body.includes(text[a.db]!), `the answer of ${a.db.slice(0, 12)} (${a.replica}) says its own build's text: ${a.body.slice(0, 300)}`);
      assert.ok(!a.body.includes(text[a.db === shaA ? shaB : shaA]!), `no answer carries the other build's text`);
    }
    const after = l.answers.filter((a) => a.startedAt > convergedAt);
    assert.ok(after.length > 0);
    assert.deepEqual(
      after.filter((a) => a.db !== shaB).map((a) => a.replica),
      [],
      'every answer asked after the last replica switched is build B',
    );
    assert.deepEqual(new Set(after.map((a) => a.replica)), new Set(['r1', 'r2', 'r3']), 'haproxy spreads the load over all three');
    const during = l.answers.filter((a) => a.startedAt >= publishedAt && a.startedAt <= convergedAt);
    t.diagnostic(
      `fleet: ${l.answers.length} requests, ${failed.length} failed; ${during.length} during the rollout ` +
        `(${during.filter((a) => a.db === shaA).length} build A, ${during.filter((a) => a.db === shaB).length} build B); ` +
        `replicas fetched build B ${fetched.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} and served it ${switched.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} after the publish (poll ${POLL_MS / 1000} s)`,
    );
  } finally {
    if (lb) await stopChild(lb.child);
    await Promise.all(replicas.map((r) => stopChild(r.child)));
    await server.close();
  }
});
