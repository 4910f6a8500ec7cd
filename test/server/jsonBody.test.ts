import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { jsonBody } from '../../src/server/jsonBody.js';

/** An app answering what its body parser made of a request: the body, or the error's status, type and expose. */
async function echo(parser: RequestHandler) {
  const app = express();
  app.use(parser);
  app.use((req: Request, res: Response) => {
    res.json({ body: req.body === undefined ? '(undefined)' : (req.body as unknown) });
  });
  app.use((err: { status?: number; type?: string; expose?: boolean }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ error: { status: err.status, type: err.type, expose: err.expose } });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as AddressInfo).port;
  return { port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A raw POST (exact headers, no client normalization). */
function post(port: number, headers: Record<string, string>, body: Buffer | string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
      let out = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (out += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: out }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('jsonBody parses (and fails) like express.json', async () => {
  const limit = 200;
  // the lean reader, with express.json behind it counting what it was handed
  const handed: string[] = [];
  const behind = express.json({ limit });
  let current = '';
  const lean = await echo(
    jsonBody(limit, (req, res, next) => {
      handed.push(current);
      behind(req, res, next);
    }),
  );
  const full = await echo(express.json({ limit }));
  try {
    const json = { 'content-type': 'application/json' };
    const cases: Array<[string, Record<string, string>, Buffer | string]> = [
      ['object', json, '{"query":"{ a }","variables":{"q":"trample"}}'],
      ['array', json, '[{"query":"{ a }"}]'],
      ['leading whitespace', json, ' \r\n\t{"a":1}'],
      ['byte order mark', json, '\ufeff{"a":1}'],
      ['utf-8 text', json, '{"q":"Lim-Dûl’s “x”"}'],
      ['invalid utf-8', json, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ['charset param', { 'content-type': 'application/json; charset=utf-8' }, '{"a":1}'],
      ['upper case type', { 'content-type': 'Application/JSON' }, '{"a":1}'],
      ['other charset', { 'content-type': 'application/json; charset=latin1' }, '{"a":1}'],
      ['string (strict)', json, '"x"'],
      ['number (strict)', json, '12'],
      ['whitespace only', json, '   '],
      ['malformed', json, '{"query": '],
      ['empty', json, ''],
      ['too large', json, `{"a":"${'x'.repeat(300)}"}`],
      ['gzip', { ...json, 'content-encoding': 'gzip' }, gzipSync('{"a":1}')],
      ['text/plain', { 'content-type': 'text/plain' }, '{"a":1}'],
      ['no content type', {}, '{"a":1}'],
      ['vendor json', { 'content-type': 'application/vnd.api+json' }, '{"a":1}'],
    ];
    for (const [name, headers, body] of cases) {
      current = name;
      const a = await post(lean.port, headers, body);
      const b = await post(full.port, headers, body);
      assert.deepEqual(a, b, name);
    }
    // the plain requests were read by jsonBody itself
    assert.deepEqual(handed, ['other charset', 'empty', 'too large', 'gzip', 'text/plain', 'no content type', 'vendor json']);
    // and the cases differ among themselves: parsed bodies, 400s, a 413 and skipped bodies
    const statuses = new Set<number>();
    current = '';
    for (const [, headers, body] of cases) statuses.add((await post(lean.port, headers, body)).status);
    assert.deepEqual([...statuses].sort(), [200, 400, 413, 415]);
  } finally {
    await lean.close();
    await full.close();
  }
});
