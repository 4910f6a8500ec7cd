import { test } from 'node:test';
import { sharedServer } from '../server/helpers.js';
import assert from 'node:assert/strict';
import http from 'node:http';
import { brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { createResponseCache } from '../../src/http/ResponseCache.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();

const entry = (body: string) => ({ status: 200, contentType: 'application/json', body, etag: 'W/"e"', cacheControl: 'public' });

test('a large answer (a megabyte) is cached, and the cache stays bounded in bytes with its compressed forms', async () => {
  const cache = createResponseCache(8 * 1024 * 1024);
  const big = JSON.stringify({ rules: Array.from({ length: 12_000 }, (_, i) => ({ number: `${i}`, text: `Rule ${i} text, with some words to compress.` })) });
  assert.ok(big.length > 600_000);
  const stored = cache.set('/v1/editions/x.json', entry(big));
  assert.equal(cache.get('/v1/editions/x.json'), stored, 'an answer over 512 K characters is kept');
  const before = cache.calculatedSize;
  const br = await stored.encode('br');
  assert.equal(brotliDecompressSync(br).toString(), big);
  assert.equal(await stored.encode('br'), br, 'compressed once: the same bytes come back');
  assert.equal(cache.calculatedSize, before + br.length, 'the compressed form is counted');
  for (let i = 0; i < 20; i++) cache.set(`/other/${i}`, entry(big));
  assert.ok(cache.calculatedSize <= 8 * 1024 * 1024, `${cache.calculatedSize} bytes`);
  assert.equal(cache.get('/v1/editions/x.json'), undefined, 'the oldest was evicted');
});

test('a body of 128 KB or more (a long diff page) is gzipped at level 4, a smaller one at the default level; both decompress to the body', async () => {
  const cache = createResponseCache();
  const text = (n: number) => Array.from({ length: n }, (_, i) => `<p>Rule ${i}: the words of rule ${(i * 7) % 101}.</p>`).join('\n');
  const cases: Array<[string, number]> = [
    [text(6000), 4],
    [text(200), constants.Z_DEFAULT_COMPRESSION],
  ];
  assert.ok(Buffer.byteLength(cases[0]![0]) >= 128 * 1024 && Buffer.byteLength(cases[1]![0]) < 128 * 1024);
  for (const [body, level] of cases) {
    const gz = await cache.set(`/page/${level}`, entry(body)).encode('gzip');
    assert.equal(gunzipSync(gz).toString(), body);
    assert.deepEqual(gz, gzipSync(Buffer.from(body), { level }), `level ${level}`);
  }
});

const shared = sharedServer(dbFile, { publicUrl: 'https://crkb.test' });

/** A GET with raw bytes and headers (fetch would decode the body). */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((done, fail) => {
    http
      .get(shared.l.url + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', fail);
  });
}

test('a large answer asked again is sent in its kept brotli or gzip form, with its own ETag and Content-Length', async () => {
  const path = '/v1/editions/2021-07-12.json';
  const plain = await get(path, { 'accept-encoding': 'identity' });
  assert.equal(plain.status, 200);
  assert.ok(plain.body.length > 512 * 1024, `${plain.body.length} bytes`);
  assert.equal(plain.headers['content-encoding'], undefined);
  const first = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
  const again = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
  for (const r of [first, again]) {
    assert.equal(r.headers['content-encoding'], 'br');
    assert.equal(Number(r.headers['content-length']), r.body.length);
    assert.match(String(r.headers.vary), /Accept-Encoding/);
    assert.deepEqual(brotliDecompressSync(r.body), plain.body);
  }
  assert.equal(first.headers.etag, plain.headers.etag!.replace(/"$/, '-br"'));
  const gz = await get(path, { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gz.headers.etag, plain.headers.etag!.replace(/"$/, '-gzip"'));
  assert.deepEqual(gunzipSync(gz.body), plain.body);
  // each form revalidates with its own tag
  assert.equal((await get(path, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! })).status, 304);
  assert.equal((await get(path, { 'accept-encoding': 'identity', 'if-none-match': first.headers.etag! })).status, 200);
  // a small answer is not compressed, as before
  const small = await get('/v1/lookup?q=702.19b&format=text', { 'accept-encoding': 'br' });
  assert.equal(small.headers['content-encoding'], undefined);
});
