import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { buildServer } from '../../src/server/buildServer.js';
import { listen } from '../../src/server/listen.js';
import { fixtureDb } from '../server/fixtures.js';
import type { J } from '../server/helpers.js';

let dir = '';
let file = '';
let url = '';
let stop: () => Promise<void>;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-download-'));
  file = path.join(dir, 'crkb.db');
  fixtureDb(file).close();
  const built = await buildServer({ dbFile: file });
  const l = await listen(built.app, 0);
  url = l.url;
  stop = async () => {
    await l.close();
    built.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
});
after(() => stop());

const get = (p: string, headers: Record<string, string> = {}) => fetch(url + p, { headers, cache: 'no-cache' } as RequestInit);

test('GET /download/crkb.db is the database file, with an ETag, and opens as SQLite', async () => {
  const res = await get('/download/crkb.db');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/vnd.sqlite3');
  assert.match(res.headers.get('content-disposition')!, /filename="crkb\.db"/);
  assert.match(res.headers.get('cache-control')!, /max-age/);
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.ok(bytes.equals(fs.readFileSync(file)));
  const copy = path.join(dir, 'copy.db');
  fs.writeFileSync(copy, bytes);
  const db = new Database(copy, { readonly: true });
  assert.equal((db.prepare('SELECT count(*) AS n FROM editions').get() as { n: number }).n, 3);
  db.close();
  const etag = res.headers.get('etag')!;
  assert.ok(etag);
  assert.equal((await get('/download/crkb.db', { 'if-none-match': etag })).status, 304);
});

test('GET /v1/editions/{edition}.json is the crkb export shape, immutable when pinned', async () => {
  const kb = KnowledgeBase.open(file);
  try {
    const res = await get('/v1/editions/2021-06-18.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('cache-control')!, /immutable/);
    assert.deepEqual(await res.json(), kb.exportEdition(kb.resolveEdition('2021-06-18').edition));
    const latest = await get('/v1/editions/latest.json');
    assert.equal(((await latest.json()) as J).effectiveDate, '2021-07-23');
    assert.doesNotMatch(latest.headers.get('cache-control')!, /immutable/);
    assert.equal((await get('/v1/editions/2021-06-18.json', { 'if-none-match': res.headers.get('etag')! })).status, 304);
    const bad = await get('/v1/editions/someday.json');
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as J).error.message, /edition "someday"/);
  } finally {
    kb.close();
  }
});
