import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { CORPUS, corpusDb } from '../cli/corpusDb.js';
import { tempDir } from '../support/tempDir.js';
import { buildServer } from '../../src/server/buildServer.js';
import { listen } from '../../src/server/listen.js';
import { sharedServer } from './helpers.js';

const db = corpusDb();
const s = sharedServer(db, { heavyThreads: 0, warmSearch: false });
const get = (path: string, headers: Record<string, string> = {}) => fetch(s.l.url + path, { headers, cache: 'no-cache' } as RequestInit);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

test('/v1/files/{edition}.txt: the stored text file byte for byte, its sha256 in X-Source-SHA256 and the ETag', async () => {
  // 2021-07-23 (rulesraker/2021-07-12.txt: UTF-8 with a BOM, CRLF) and 2009-07-11 (ASCII)
  for (const [edition, file, charset] of [
    ['2021-07-23', 'rulesraker/2021-07-12.txt', 'utf-8'],
    ['2009-07-11', 'rulesraker/2009-07-11.txt', 'us-ascii'],
  ] as const) {
    const published = readFileSync(join(CORPUS, file));
    const res = await get(`/v1/files/${edition}.txt`, { 'accept-encoding': 'identity' });
    assert.equal(res.status, 200, edition);
    const body = Buffer.from(await res.arrayBuffer());
    assert.ok(body.equals(published), `${edition}: the bytes as published`);
    assert.equal(res.headers.get('x-source-sha256'), sha256(published));
    assert.equal(res.headers.get('etag'), `"${sha256(published)}"`);
    assert.equal(res.headers.get('content-type'), `text/plain; charset=${charset}`);
    assert.match(res.headers.get('cache-control')!, /immutable/);
    // a client holding it asks again with its ETag: 304
    assert.equal((await get(`/v1/files/${edition}.txt`, { 'accept-encoding': 'identity', 'if-none-match': res.headers.get('etag')! })).status, 304);
    // compressed on the wire, the same bytes, tagged as that coding of them
    const gz = await get(`/v1/files/${edition}.txt`, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers.get('etag'), `"${sha256(published)}-gzip"`);
    assert.ok(Buffer.from(await gz.arrayBuffer()).equals(published));
  }
  // latest and a date in force: the same file, named by its edition, cached briefly
  const latest = await get('/v1/files/latest.txt');
  assert.equal(latest.headers.get('content-location'), '/v1/files/2021-07-23.txt');
  assert.equal(latest.headers.get('cache-control'), 'public, max-age=300, stale-while-revalidate=86400');
  assert.equal(latest.headers.get('x-source-sha256'), sha256(readFileSync(join(CORPUS, 'rulesraker/2021-07-12.txt'))));
  assert.equal((await get('/v1/files/2021-07-01.txt')).headers.get('content-location'), '/v1/files/2021-06-18.txt');
});

test('/v1/files/{edition}.utf8.txt: the same text in UTF-8 with LF line endings and no BOM, as ingest read it', async () => {
  const published = readFileSync(join(CORPUS, 'rulesraker/2021-07-12.txt'));
  const res = await get('/v1/files/2021-07-23.utf8.txt');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.equal(res.headers.get('x-source-sha256'), sha256(published));
  assert.equal(res.headers.get('content-location'), '/v1/files/2021-07-23.utf8.txt');
  const text = await res.text();
  assert.equal(text, decodeBuffer(published).text);
  assert.ok(!text.includes('\r') && !text.startsWith('\uFEFF'));
  assert.match(text, /^Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of July 23, 2021\./);
});

test('/v1/files: an unknown edition is a 404 in the one error shape; other names are no file', async () => {
  for (const path of ['/v1/files/1990-01-01.txt', '/v1/files/XYZ.utf8.txt']) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    const j = (await res.json()) as { error: { code: string; message: string; argument?: string } };
    assert.equal(j.error.code, 'NOT_FOUND');
    assert.equal(j.error.argument, 'edition');
  }
  assert.equal((await get('/v1/files/2021-07-23.pdf')).status, 404);
});

test('an edition stored from a Word document has no text file, and says so; bytes are kept once, only for stored files', async () => {
  const dir = tempDir('crkb-files-');
  const file = join(dir, 'crkb.db');
  copyFileSync(db(), file);
  // 2013-09-27 exists here only as a Word document; the corpus file of 2021-07-23 again changes nothing
  await runIngest({
    inputs: expandInputs([join(CORPUS, 'rulesraker-documents/docx/2013-09-27.docx'), join(CORPUS, 'mtg-cr/CR-2021-07-12.txt')]),
    dbFile: file,
  });
  const raw = new Database(file, { readonly: true });
  const rows = raw.prepare('SELECT sha256 FROM source_bytes ORDER BY sha256').pluck().all();
  const primaries = raw
    .prepare(`SELECT f.sha256 FROM editions e JOIN source_files f ON f.id = e.primary_file_id WHERE f.encoding <> 'word' ORDER BY f.sha256`)
    .pluck()
    .all();
  raw.close();
  assert.deepEqual(rows, primaries, "one row per edition's stored text file");
  assert.equal(rows.length, 4);
  const built = await buildServer({ dbFile: file, heavyThreads: 0, warmSearch: false });
  const l = await listen(built.app, 0);
  try {
    const res = await fetch(`${l.url}/v1/files/2013-09-27.txt`);
    assert.equal(res.status, 404);
    const j = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(j.error.code, 'NOT_FOUND');
    assert.match(j.error.message, /^the 2013-09-27 edition is stored from a Word document \(.*\.docx\), not a text file/);
    assert.match(j.error.message, /the newest edition before it with a text file is 2009-07-11: \/v1\/files\/2009-07-11\.txt$/);
  } finally {
    await l.close();
    await built.close();
  }
});
