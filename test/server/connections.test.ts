import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import express from 'express';
import { buildServer, type BuildServerOptions } from '../../src/server/buildServer.js';
import { CONNECTION_LIMITS, listen, type ConnectionLimits } from '../../src/server/listen.js';
import { writePaddedDb } from '../support/databases.js';
import { tempDir } from '../support/tempDir.js';
import { fixtureDb } from './fixtures.js';

/** A server on a loopback port; `worked` counts the requests that reached the app. */
async function serve(opts: Partial<BuildServerOptions>, limits: ConnectionLimits = {}) {
  const db = opts.dbFile ? undefined : fixtureDb();
  const built = await buildServer({ ...(db ? { db } : {}), ...opts });
  const counting = express();
  counting.use((_req, _res, next) => {
    worked++;
    next();
  }, built.app);
  let worked = 0;
  const l = await listen(counting, 0, '127.0.0.1', limits);
  after(async () => {
    await l.close();
    built.close();
    db?.close();
  });
  return Object.assign(l, { worked: () => worked });
}

/** A raw connection that sends `request` and never reads (past what node buffers itself). */
function stalledClient(port: number, request: string): net.Socket {
  const s = net.connect(port, '127.0.0.1');
  s.on('error', () => undefined);
  s.write(request);
  s.pause();
  return s;
}

/** What a promise resolves to, or `late` when it takes longer than ms (the timer does not outlive it). */
function within<T>(p: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((r) => (timer = setTimeout(() => r(late), ms)))]).finally(() => clearTimeout(timer));
}

const RULE = 'GET /v1/rules/100.1?format=text HTTP/1.1\r\nHost: x\r\n\r\n';

test('a client that stops reading a download is dropped within the idle timeout', async () => {
  const f = path.join(tempDir('crkb-conn-'), 'crkb.db');
  writePaddedDb(f, 24 * 1024 * 1024);
  const l = await serve({ dbFile: f }, { idleTimeoutMs: 300 });
  const closed = new Promise<number>((resolve) => {
    l.server.once('connection', (s: net.Socket) => {
      const t0 = performance.now();
      s.once('close', () => resolve(performance.now() - t0));
    });
  });
  const client = stalledClient(l.port, 'GET /download/crkb.db HTTP/1.1\r\nHost: x\r\n\r\n');
  try {
    const ms = await within(closed, 15_000, Infinity);
    // the loopback buffers fill in well under a second; then 300 ms without progress
    assert.ok(ms < 15_000, 'the server dropped the stalled reader');
    const r = await fetch(`${l.url}/v1/rules/100.1?format=text`);
    assert.equal(r.status, 200);
  } finally {
    client.destroy();
  }
});

test('a connection pipelining requests without taking the answers is dropped at the bound; shallow pipelining is answered', async () => {
  const l = await serve({});
  // 2,000 requests written at once, nothing read for a while
  const flood = stalledClient(l.port, RULE.repeat(2000));
  let got = '';
  const ended = within(
    new Promise<boolean>((resolve) => {
      flood.on('data', (d: Buffer) => (got += d.toString('latin1')));
      flood.once('close', () => resolve(true));
    }),
    10_000,
    false,
  );
  await new Promise((r) => setTimeout(r, 300));
  flood.resume();
  assert.equal(await ended, true, 'the server closed the connection');
  const answered = got.match(/HTTP\/1\.1 200/g)?.length ?? 0;
  assert.ok(answered <= CONNECTION_LIMITS.maxPipelined, `${answered} answers`);
  assert.ok(l.worked() <= CONNECTION_LIMITS.maxPipelined + 1, `${l.worked()} requests reached the app`);

  // a client taking its answers may pipeline up to the bound
  const polite = net.connect(l.port, '127.0.0.1');
  let text = '';
  polite.write(RULE.repeat(CONNECTION_LIMITS.maxPipelined));
  await new Promise<void>((resolve, reject) => {
    polite.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if ((text.match(/HTTP\/1\.1 200/g)?.length ?? 0) === CONNECTION_LIMITS.maxPipelined) resolve();
    });
    polite.once('close', () => reject(new Error(`closed after ${text.match(/HTTP\/1\.1 200/g)?.length ?? 0} answers`)));
  });
  polite.destroy();
});

test('drain: no new connections; a kept-alive connection gets its next answer with Connection: close, then the drain ends', async () => {
  const l = await serve({});
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      http
        .get(`${l.url}/v1/rules/100.1?format=text`, { agent }, (r) => {
          r.resume();
          r.on('end', () => resolve({ status: r.statusCode!, connection: r.headers.connection }));
        })
        .on('error', reject);
    });
  try {
    assert.deepEqual(await get(), { status: 200, connection: 'keep-alive' });
    const drained = l.drain(20_000);
    assert.deepEqual(await get(), { status: 200, connection: 'close' }, 'answered on the kept-alive connection');
    assert.equal(
      await within(
        drained.then(() => 'drained'),
        15_000,
        'still waiting',
      ),
      'drained',
      'the drain ends when its connections have, not at its bound',
    );
    await assert.rejects(fetch(`${l.url}/v1/rules/100.1`), 'no new connections');
  } finally {
    agent.destroy();
  }
});
