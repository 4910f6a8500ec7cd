import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { run as publish } from '../../../src/cli/publish.js';
import { refusalOf as refusal } from '../../../src/db/openVerifiedDb.js';
import { followArtifact } from '../../../src/integrations/fleet/followArtifact.js';
import { captureCli, corpusDb } from '../../cli/corpusDb.js';
import { tempDir } from '../../support/tempDir.js';

const db = corpusDb();
const dir = tempDir('crkb-follow-');
const site = join(dir, 'site');
const requests: Array<{ url: string; inm: string | undefined; status: number }> = [];
let server: Server;
let base = '';

// a static file server with strong ETags and conditional GETs, as any web server or object store answers
before(async () => {
  server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1));
    const path = join(site, name);
    if (name.includes('/') || !existsSync(path)) {
      requests.push({ url: req.url!, inm: req.headers['if-none-match'], status: 404 });
      res.writeHead(404).end();
      return;
    }
    const body = readFileSync(path);
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    const status = req.headers['if-none-match'] === etag ? 304 : 200;
    requests.push({ url: req.url!, inm: req.headers['if-none-match'], status });
    res.writeHead(status, { etag }).end(status === 200 ? body : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');

/** Another valid build: the corpus database with one more meta row (another hash). */
function otherBuild(): string {
  const f = join(dir, 'other.db');
  copyFileSync(db(), f);
  const d = new Database(f);
  d.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('test_build', ?)`).run(String(Date.now()));
  d.close();
  return f;
}

test('a replica fetches the published artifact, asks again conditionally, takes a new build and refuses a bad one', async () => {
  assert.equal((await captureCli(publish, db(), ['--to', site])).code, 0);
  const served = join(dir, 'served.db');
  const lines: string[] = [];
  const f = followArtifact({ url: `${base}/current.json`, file: served, refusal, log: (l) => lines.push(l) });

  assert.equal(await f.poll(), 'updated', lines.join('\n'));
  assert.equal(sha(served), sha(db()));
  // nothing new: a conditional GET answered 304
  assert.equal(await f.poll(), 'unchanged');
  assert.equal(requests.at(-1)!.status, 304);
  assert.ok(requests.at(-1)!.inm);

  // a new build is published: taken, verified, renamed over the served file
  const other = otherBuild();
  assert.equal((await captureCli(publish, other, ['--to', site])).code, 0);
  assert.equal(await f.poll(), 'updated', lines.join('\n'));
  assert.equal(sha(served), sha(other));

  // a manifest announcing bytes the artifact does not have: refused, the served file kept, no temporary left
  const m = JSON.parse(readFileSync(join(site, 'current.json'), 'utf8')) as { sha256: string; file: string };
  const fake = 'e'.repeat(64);
  writeFileSync(join(site, `crkb-${fake}.db`), readFileSync(db()));
  writeFileSync(join(site, 'current.json'), JSON.stringify({ ...m, sha256: fake, file: `crkb-${fake}.db`, size: readFileSync(db()).length }));
  assert.equal(await f.poll(), 'failed');
  assert.match(lines.at(-1)!, new RegExp(`crkb-${fake}\\.db: sha256 ${sha(db())}, current.json announces ${fake}; still serving`));
  assert.equal(sha(served), sha(other));

  // an artifact that is not a crkb database, with the right hash: refused too
  writeFileSync(join(site, 'junk'), 'not a database');
  const junkSha = sha(join(site, 'junk'));
  copyFileSync(join(site, 'junk'), join(site, `crkb-${junkSha}.db`));
  writeFileSync(join(site, 'current.json'), JSON.stringify({ ...m, sha256: junkSha, file: `crkb-${junkSha}.db`, size: 14 }));
  assert.equal(await f.poll(), 'failed');
  assert.match(lines.at(-1)!, /not an SQLite database; still serving/);
  assert.equal(sha(served), sha(other));

  // the server gone: a failure, nothing replaced
  const gone = followArtifact({ url: 'http://127.0.0.1:1/current.json', file: served, refusal, log: (l) => lines.push(l) });
  assert.equal(await gone.poll(), 'failed');
  assert.equal(sha(served), sha(other));
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.includes('.download-')),
    [],
  );
});
