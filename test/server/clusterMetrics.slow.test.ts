import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/projectFiles.js';
import { writeEditionDb } from '../support/databases.js';
import { stopChild, until } from '../support/fleet.js';
import { tempDir } from '../support/tempDir.js';

/** The value of one sample line of Prometheus text (name with its labels, exactly), or null. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

test('/metrics of crkb serve is the whole server: every process counted, the database by hash, reloads and process states from the supervisor', async () => {
  const dir = tempDir('crkb-metrics-');
  const db = join(dir, 'crkb.db');
  writeEditionDb(db, 'First build.');
  const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');
  const first = sha(db);
  const sv = spawn(process.execPath, [join(projectRoot(), 'bin/crkb.js'), 'serve', '--db', db, '--port', '0', '--workers', '2'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CRKB_WATCH_MS: '200', CRKB_DRAIN_MS: '3000', CRKB_LOG_LEVEL: 'warn' },
  });
  let out = '';
  sv.stdout.on('data', (d: Buffer) => (out += d.toString()));
  sv.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    const url = await until(() => /GraphQL\s+(http:\/\/\S+)\/graphql/.exec(out)?.[1] ?? null, 'crkb serve to serve', 120_000);
    const metrics = async (): Promise<string> => (await fetch(`${url}/metrics`, { headers: { connection: 'close' } })).text();
    // a new connection each: the cluster hands them to both processes in turn
    const N = 20;
    for (let i = 0; i < N; i++) {
      const r = await fetch(`${url}/v1/rules/100.1`, { headers: { connection: 'close' } });
      assert.equal(r.status, 200);
      await r.text();
    }
    const whole = await metrics();
    assert.equal(sample(whole, `crkb_db_info{sha256="${first}"}`), 2, 'both processes serve the first build');
    assert.equal(sample(whole, 'crkb_server_processes{state="ready"}'), 2);
    assert.equal(sample(whole, 'crkb_reloads_total{result="served"}'), 0);
    const count = `crkb_http_request_duration_seconds_count{method="GET",route="/v1/rules/:number",status="200"}`;
    assert.equal(sample(whole, count), N, 'every answer counted, whichever process gave it');
    assert.equal(sample(await metrics(), count), N, 'the same from any process');

    writeEditionDb(join(dir, 'next.db'), 'Second build.');
    const second = sha(join(dir, 'next.db'));
    // renamed over the served file: the supervisor reloads
    renameSync(join(dir, 'next.db'), db);
    const after = await until(
      async () => {
        const m = await metrics();
        return sample(m, 'crkb_reloads_total{result="served"}') === 1 && sample(m, `crkb_db_info{sha256="${second}"}`) === 2 ? m : null;
      },
      'the reload in /metrics',
      120_000,
    );
    assert.ok((sample(after, 'crkb_db_age_seconds') ?? -1) >= 0);
    assert.equal(sample(after, 'crkb_reloads_total{result="failed"}'), 0);
  } finally {
    await stopChild(sv);
  }
});
