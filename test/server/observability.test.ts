import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express from 'express';
import { buildServer, type BuiltServer } from '../../src/server/buildServer.js';
import { listen, type Listening } from '../../src/server/listen.js';
import { log } from '../../src/server/logger.js';
import { probes } from '../../src/server/probes.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();
let built: BuiltServer;
let l: Listening;
before(async () => {
  built = await buildServer({ dbFile: dbFile(), heavyThreads: 1, publicUrl: 'https://crkb.test' });
  l = await listen(built.app, 0);
});
after(async () => {
  await l.close();
  await built.close();
});

test('/healthz and /readyz answer 200 with the database hash; /readyz 503 once the process drains', async () => {
  const sha = createHash('sha256').update(readFileSync(dbFile())).digest('hex');
  const h = await fetch(l.url + '/healthz');
  assert.equal(h.status, 200);
  assert.deepEqual(await h.json(), { status: 'ok', db: sha });
  assert.equal((await fetch(l.url + '/readyz')).status, 200);
  const other = await buildServer({ dbFile: dbFile(), heavyThreads: 0 });
  const ol = await listen(other.app, 0);
  try {
    other.unready();
    const r = await fetch(ol.url + '/readyz');
    assert.equal(r.status, 503);
    assert.equal(((await r.json()) as { status: string }).status, 'not ready');
    assert.equal((await fetch(ol.url + '/healthz')).status, 200);
  } finally {
    await ol.close();
    await other.close();
  }
});

test('every answer carries the database hash and a request id: the client’s when plain, else a new one', async () => {
  const a = await fetch(l.url + '/v1/rules/702.19b?edition=2021-07-23', { headers: { 'x-request-id': 'abc-123' } });
  assert.equal(a.headers.get('x-crkb-db'), built.dbSha256);
  assert.equal(a.headers.get('x-request-id'), 'abc-123');
  const b = await fetch(l.url + '/no/such/page', { headers: { 'x-request-id': 'bad id with spaces' } });
  assert.equal(b.status, 404);
  assert.equal(b.headers.get('x-crkb-db'), built.dbSha256);
  assert.match(b.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  assert.notEqual(b.headers.get('x-request-id'), (await fetch(l.url + '/no/such/page')).headers.get('x-request-id'));
});

test('/metrics counts answers by route template and status, and names the database and heavy queues', async () => {
  await fetch(l.url + '/v1/rules/702.19b?edition=2021-07-23');
  await fetch(l.url + '/v1/rules/702.19?edition=2021-07-23');
  await fetch(l.url + '/v1/rules/999.99?edition=2021-07-23');
  const text = await (await fetch(l.url + '/metrics')).text();
  const count = (status: number): number =>
    Number(new RegExp(`crkb_http_request_duration_seconds_count\\{method="GET",route="/v1/rules/:number",status="${status}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  assert.ok(count(200) >= 2, text.slice(0, 2000));
  assert.ok(count(404) >= 1, text.slice(0, 2000));
  assert.match(text, new RegExp(`crkb_db_info\\{sha256="${built.dbSha256}"\\} 1`));
  assert.match(text, /crkb_heavy_queue_depth\{kind="diff"\} 0/);
  assert.match(text, /crkb_db_age_seconds \d/);
  assert.match(text, /crkb_process_cpu_seconds_total/);
});

test('slow answers are logged at info as JSON with their request id; fast ones are not', async (t) => {
  const lines: string[] = [];
  t.mock.method(log, 'info', (...a: unknown[]) => void lines.push(JSON.stringify(a)));
  for (const slowMs of [0, 60_000]) {
    const app = express();
    app.use(probes({ dbSha256: 'f'.repeat(64), ready: () => true, slowMs }));
    app.get('/x', (_req, res) => void res.send('x'));
    const s = await listen(app, 0);
    try {
      assert.equal((await fetch(s.url + '/x', { headers: { 'x-request-id': `id-${slowMs}` } })).status, 200);
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      await s.close();
    }
  }
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0]!, /"id":"id-0","method":"GET","url":"\/x","status":200,"ms":[\d.]+\},"answer"/);
});

test('pinned answers are immutable and tagged crkb-pinned; latest ones short-lived, stale-while-revalidate, tagged crkb-latest', async () => {
  const pinned = await fetch(l.url + '/v1/rules/702.19b?edition=2021-07-23');
  assert.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(pinned.headers.get('surrogate-key'), 'crkb crkb-pinned');
  assert.equal(pinned.headers.get('cache-tag'), 'crkb,crkb-pinned');
  const latest = await fetch(l.url + '/v1/rules/702.19b?edition=latest');
  assert.match(latest.headers.get('cache-control') ?? '', /^public, max-age=\d+, stale-while-revalidate=\d+$/);
  assert.equal(latest.headers.get('surrogate-key'), 'crkb crkb-latest');
  assert.equal(latest.headers.get('x-crkb-db'), built.dbSha256);
});
