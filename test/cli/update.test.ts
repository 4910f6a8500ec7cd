import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs, type Manifest } from '../../ingest/store/sources.js';
import { run } from '../../src/cli/update.js';
import { Catalog } from '../../src/db/Catalog.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { captureCli, CORPUS } from './corpusDb.js';
import { crFixtureText } from '../support/crFixture.js';
import { projectRoot } from '../../src/core/projectFiles.js';

/** Serves `routes` (request path → body) on 127.0.0.1, counting requests per path; the first `drop` requests get their connection closed unanswered. */
async function serve(routes: Record<string, Buffer>, drop = 0): Promise<{ server: Server; base: string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    if (drop-- > 0) return void req.socket.destroy();
    const body = routes[req.url ?? ''];
    if (body === undefined) res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
    else res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

/** A temporary folder with a database holding the given corpus files, and a manifest of `editions`. */
async function setup(files: string[], editions: Array<{ date: string; urls: string[] }>): Promise<{ dir: string; db: string; manifest: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-update-'));
  const db = path.join(dir, 'x.db');
  await runIngest({ inputs: expandInputs(files.map((f) => path.join(CORPUS, f))), dbFile: db });
  const manifest: Manifest = {
    note: 'test',
    editions: editions.map((e) => ({ family: 'cr', effectiveDate: e.date, setCode: null, setName: null, urls: e.urls, files: [] })),
  };
  fs.writeFileSync(path.join(dir, 'sources.json'), JSON.stringify(manifest));
  return { dir, db, manifest: path.join(dir, 'sources.json') };
}

function stored(db: string): string[] {
  const h = openReadOnlyDb(db);
  try {
    return new Catalog(h)
      .editions()
      .filter((e) => e.family === 'cr')
      .map((e) => e.effectiveDate);
  } finally {
    h.close();
  }
}

const read = (rel: string): Buffer => fs.readFileSync(path.join(CORPUS, rel));

test('update: the manifest first (a malformed official name), then the address pattern; release notes of each new edition', async () => {
  const { dir, db, manifest } = await setup(
    ['rulesraker/2021-06-09.txt'],
    [
      { date: '2021-06-18', urls: [] },
      // 2021-09-24 was published as "MagicCompRules 202109224.txt"
      { date: '2021-09-24', urls: ['https://media.wizards.com/2021/downloads/MagicCompRules%20202109224.txt'] },
    ],
  );
  const { server, base, hits } = await serve({
    '/2021/downloads/MagicCompRules%20202109224.txt': read('rulesraker/2021-07-12.txt'),
    '/2021/downloads/MagicCompRules%2020211119.txt': read('mtg-cr/CR-2021-11-15.txt'),
  });
  try {
    const r = await captureCli(run, db, ['--manifest', manifest, '--base-url', base, '--until', '2021-11-30']);
    assert.equal(r.code, 0, r.err);
    // the documents state their own dates (the files stand in for those editions)
    assert.deepEqual(stored(db), ['2021-06-18', '2021-07-23', '2021-11-19']);
    assert.match(r.out, /# Comprehensive Rules changes, 2021-06-18 → 2021-07-23/);
    assert.match(r.out, /# Comprehensive Rules changes, 2021-07-23 → 2021-11-19/);
    assert.match(r.out, /\*\*309\.1\*\* \(new\)/);
    // every day after the newest known edition was tried once, through --until
    assert.equal(hits.get('/2021/downloads/MagicCompRules%2020210925.txt'), 1);
    assert.equal(hits.get('/2021/downloads/MagicCompRules%2020211130.txt'), 1);
    assert.equal(hits.has('/2021/downloads/MagicCompRules%2020210924.txt'), false);
    // a second run finds nothing newer than what it stored
    const again = await captureCli(run, db, ['--manifest', manifest, '--base-url', base, '--until', '2021-11-30']);
    assert.equal(again.code, 0);
    assert.match(again.out, /^up to date: no edition newer than 2021-11-19/);
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('update: an edition republished under a second name is stored once, both files merged', async () => {
  const { dir, db, manifest } = await setup(
    ['rulesraker/2022-10-07.txt'],
    [
      { date: '2022-10-07', urls: [] },
      { date: '2026-06-19', urls: ['https://media.wizards.com/2026/downloads/MagicCompRules%2020260619.txt'] },
    ],
  );
  const first = read('rulesraker/2022-11-18.txt');
  // the second publication differs in white space only
  const second = Buffer.from(decodeBuffer(first).text.replace(/\n/g, ' \n'), 'utf8');
  const { server, base } = await serve({
    '/2026/downloads/MagicCompRules%2020260807.txt': first,
    '/2026/downloads/MagicCompRules%2020260819.txt': second,
  });
  try {
    const r = await captureCli(run, db, ['--manifest', manifest, '--base-url', base, '--until', '2026-08-31']);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(stored(db), ['2022-10-07', '2022-11-18']);
    const files = r.out.split('\n').filter((l) => /MagicCompRules%20202608(07|19)\.txt/.test(l));
    assert.equal(files.length, 2);
    assert.equal(files.filter((l) => /; stored: /.test(l)).length, 1);
    assert.equal(files.filter((l) => /; merged, 0 entries differ after normalization\)$/.test(l)).length, 1);
    assert.equal(r.out.match(/# Comprehensive Rules changes/g)?.length, 1);
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('update with no network says so in one line and exits non-zero; nothing is written', async () => {
  const { dir, db, manifest } = await setup(['rulesraker/2022-10-07.txt'], [{ date: '2022-10-07', urls: [] }]);
  // a port nothing listens on
  const { server, base } = await serve({});
  await new Promise((r) => server.close(r));
  try {
    const before = fs.readFileSync(db);
    const r = await captureCli(run, db, ['--manifest', manifest, '--base-url', base, '--until', '2022-10-20']);
    assert.equal(r.code, 3);
    assert.equal(r.out, '');
    assert.match(r.err, /^crkb update: no network: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)\n$/);
    assert.ok(fs.readFileSync(db).equals(before));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('update: a connection closed unanswered once is tried again, not taken for no network', async () => {
  // what a kept-alive connection the server closes just as it is reused looks like (it failed the
  // first test under load: the second run's first request met a connection closed during the ingest)
  const { dir, db, manifest } = await setup(['rulesraker/2022-10-07.txt'], [{ date: '2022-10-07', urls: [] }]);
  const { server, base, hits } = await serve({}, 1);
  try {
    const r = await captureCli(run, db, ['--manifest', manifest, '--base-url', base, '--until', '2022-10-09']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^up to date: no edition newer than 2022-10-07 \(2 addresses tried through 2022-10-09\)/);
    assert.equal(hits.get('/2022/downloads/MagicCompRules%2020221008.txt'), 2);
    // twice in a row is no network
    const twice = await serve({}, 2);
    try {
      const r2 = await captureCli(run, db, ['--manifest', manifest, '--base-url', twice.base, '--until', '2022-10-09']);
      assert.equal(r2.code, 3);
      assert.match(r2.err, /^crkb update: no network: cannot reach http:\/\/127\.0\.0\.1:\d+ /);
    } finally {
      twice.server.close();
    }
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("update: the project manifest's irregular official names are tried before the address pattern", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-update-'));
  const db = path.join(dir, 'x.db');
  // fixture editions standing in for the real ones: the same small document, dated by its own date line
  const dated = (line: string) => Buffer.from(crFixtureText('2026-06-19').replace(/June 19, 2026/g, line), 'utf8');
  fs.writeFileSync(path.join(dir, 'base.txt'), dated('November 18, 2022'));
  await runIngest({ inputs: expandInputs([path.join(dir, 'base.txt')]), dbFile: db });
  const { server, base, hits } = await serve({
    '/2023/downloads/MagicComp%20Rules%2020230203.txt': dated('February 3, 2023'),
    '/2024/downloads/MagicCompRules%2004102024.txt': dated('April 12, 2024'),
    '/2024/downloads/MagicCompRules20240917.txt': dated('September 20, 2024'),
  });
  try {
    const manifest = path.join(projectRoot(), 'data', 'sources.json');
    const r = await captureCli(run, db, ['--manifest', manifest, '--base-url', base, '--until', '2026-09-25']);
    assert.equal(r.code, 0, r.err + r.out);
    assert.deepEqual(stored(db), ['2022-11-18', '2023-02-03', '2024-04-12', '2024-09-20']);
    // the pattern's names for those days were never needed
    for (const name of [
      '2023/downloads/MagicCompRules%2020230203.txt',
      '2024/downloads/MagicCompRules%2020240412.txt',
      '2024/downloads/MagicCompRules%2020240920.txt',
    ])
      assert.equal(hits.has(`/${name}`), false, name);
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
