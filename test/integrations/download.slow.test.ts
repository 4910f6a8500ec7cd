import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import net from 'node:net';
import Database from 'better-sqlite3';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { buildServer } from '../../src/server/buildServer.js';
import { listen } from '../../src/server/listen.js';
import { fixtureDb } from '../server/fixtures.js';
import type { J } from '../server/helpers.js';
import { writeEditionDb, writePaddedDb } from '../support/databases.js';
import { tempDir } from '../support/tempDir.js';

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

/** A server over a database file of its own (the caller may replace or delete the file). */
async function fileServer(file: string, opts: { maxDownloads?: number; idleTimeoutMs?: number } = {}) {
  const built = await buildServer({ dbFile: file, ...(opts.maxDownloads === undefined ? {} : { maxDownloads: opts.maxDownloads }) });
  const l = await listen(built.app, 0, '127.0.0.1', opts.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: opts.idleTimeoutMs });
  after(async () => {
    await l.close();
    built.close();
  });
  return { built, l, url: l.url };
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

test('/download/crkb.db is the file the server verified, whatever happens to the path: sha256 as a strong ETag, ranges, 304', async () => {
  const d = tempDir('crkb-download-');
  const f = path.join(d, 'crkb.db');
  writeEditionDb(f, 'First text.');
  const original = fs.readFileSync(f);
  const { built, url: u } = await fileServer(f);
  assert.equal(built.dbSha256, sha256(original), 'the server knows the hash of what it serves');
  const download = async (headers: Record<string, string> = {}) => {
    const r = await fetch(`${u}/download/crkb.db`, { headers, cache: 'no-cache' } as RequestInit);
    return { r, bytes: Buffer.from(await r.arrayBuffer()) };
  };
  const check = async (when: string) => {
    const { r, bytes } = await download();
    assert.equal(r.status, 200, when);
    assert.equal(r.headers.get('etag'), `"${sha256(original)}"`, when);
    assert.ok(bytes.equals(original), `${when}: the verified bytes`);
  };
  await check('as started');
  const etag = `"${sha256(original)}"`;
  const part = await download({ range: 'bytes=0-15' });
  assert.equal(part.r.status, 206);
  assert.equal(part.r.headers.get('content-range'), `bytes 0-15/${original.length}`);
  assert.equal(part.bytes.toString('latin1'), 'SQLite format 3\0');
  const tail = await download({ range: 'bytes=-100', 'if-range': etag });
  assert.equal(tail.r.status, 206);
  assert.ok(tail.bytes.equals(original.subarray(original.length - 100)));
  assert.equal((await download({ range: 'bytes=0-15', 'if-range': '"another"' })).r.status, 200, 'If-Range of another version: the whole file');
  assert.equal((await download({ range: `bytes=${original.length + 10}-` })).r.status, 416);
  assert.equal((await download({ 'if-none-match': etag })).r.status, 304);
  const head = await fetch(`${u}/download/crkb.db`, { method: 'HEAD' });
  assert.equal(head.headers.get('content-length'), String(original.length));

  // an ingest renames another database over the path; then the file is deleted
  writeEditionDb(path.join(d, 'next.db'), 'Second text.');
  fs.renameSync(path.join(d, 'next.db'), f);
  await check('after the path was replaced');
  fs.rmSync(f);
  await check('after the file was deleted');
});

test('a database file rewritten in place after it was verified is not handed out', async () => {
  const d = tempDir('crkb-download-');
  const f = path.join(d, 'crkb.db');
  writeEditionDb(f, 'First text.');
  const { url: u } = await fileServer(f);
  assert.equal((await fetch(`${u}/download/crkb.db`)).status, 200);
  writeEditionDb(path.join(d, 'other.db'), 'Other text, longer than the first one.');
  fs.copyFileSync(path.join(d, 'other.db'), f); // same inode, other bytes
  const r = await fetch(`${u}/download/crkb.db`);
  assert.equal(r.status, 503);
  assert.ok(Number(r.headers.get('retry-after')) > 0);
  assert.match(((await r.json()) as J).error.message, /rewritten in place/);
});

test('downloads beyond the per-process limit get 503 with Retry-After; stalled ones are dropped and free their places', async () => {
  const d = tempDir('crkb-download-');
  const f = path.join(d, 'crkb.db');
  writePaddedDb(f, 24 * 1024 * 1024);
  const { url: u, l } = await fileServer(f, { maxDownloads: 2, idleTimeoutMs: 500 });
  const stalled: net.Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const s = net.connect(l.port, '127.0.0.1');
    s.on('error', () => undefined);
    s.write('GET /download/crkb.db HTTP/1.1\r\nHost: x\r\n\r\n');
    s.pause();
    stalled.push(s);
  }
  try {
    // both are being sent (the server has read their requests) when a third is asked for
    let third: Response | null = null;
    for (let i = 0; i < 100 && third?.status !== 503; i++) {
      await new Promise((r) => setTimeout(r, 20));
      third = await fetch(`${u}/download/crkb.db`, { headers: { range: 'bytes=0-99' } });
      await third.arrayBuffer();
    }
    assert.equal(third!.status, 503);
    assert.ok(Number(third!.headers.get('retry-after')) > 0);
    assert.match(third!.headers.get('content-type')!, /json/);
    // the stalled readers are dropped at the idle timeout: a download goes through again
    let fourth: Response | null = null;
    for (let i = 0; i < 200 && fourth?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      fourth = await fetch(`${u}/download/crkb.db`);
      await fourth.arrayBuffer();
    }
    assert.equal(fourth!.status, 200);
  } finally {
    for (const s of stalled) s.destroy();
  }
});
