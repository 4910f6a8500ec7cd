import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { run as publish } from '../../../src/cli/publish.js';
import { refusalOf as refusal } from '../../../src/db/openVerifiedDb.js';
import { followArtifact } from '../../../src/integrations/fleet/followArtifact.js';
import { captureCli, corpusDb } from '../../cli/corpusDb.js';
import { tempDir } from '../../support/tempDir.js';

// s3rver: an S3-compatible server in node (it checks SigV4 signatures), standing in for S3 or MinIO
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (opts: object) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

const db = corpusDb();
const dir = tempDir('crkb-s3-');
let s3: S3rverInstance;
let endpoint = '';
const saved = { ...process.env };

before(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'artifacts' }] });
  endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
  Object.assign(process.env, { CRKB_S3_ENDPOINT: endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' });
});
after(async () => {
  for (const k of ['CRKB_S3_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await s3.close();
});

test('publish --to s3://BUCKET/PREFIX writes the artifact and current.json through the S3 API, and a replica follows them over HTTP', async () => {
  const sha = createHash('sha256').update(readFileSync(db())).digest('hex');
  const first = await captureCli(publish, db(), ['--to', 's3://artifacts/crkb/']);
  assert.equal(first.code, 0, first.err);
  assert.match(first.out, new RegExp(`s3://artifacts/crkb/crkb-${sha}\\.db, current\\.json -> ${sha.slice(0, 12)}`));
  const again = await captureCli(publish, db(), ['--to', 's3://artifacts/crkb']);
  assert.match(again.out, /\(already there\)/, 'the artifact is not uploaded twice');

  const manifest = await fetch(`${endpoint}/artifacts/crkb/current.json`);
  assert.equal(manifest.status, 200);
  assert.equal(manifest.headers.get('cache-control'), 'no-cache');
  assert.equal(((await manifest.json()) as { sha256: string }).sha256, sha);
  const artifact = await fetch(`${endpoint}/artifacts/crkb/crkb-${sha}.db`, { method: 'HEAD' });
  assert.equal(artifact.headers.get('cache-control'), 'public, max-age=31536000, immutable');

  const served = join(dir, 'served.db');
  const lines: string[] = [];
  const f = followArtifact({ url: `${endpoint}/artifacts/crkb/current.json`, file: served, refusal, log: (l) => lines.push(l) });
  assert.equal(await f.poll(), 'updated', lines.join('\n'));
  assert.equal(createHash('sha256').update(readFileSync(served)).digest('hex'), sha);
  assert.equal(await f.poll(), 'unchanged');
});

test('publish names a bad s3:// destination and a refused upload', async () => {
  // publish itself, not captureCli: these fail before printing, and the runner may be writing the last test's report
  await assert.rejects(publish(['--db', db(), '--to', 's3://Not_A_Bucket/x']), /--to s3:\/\/Not_A_Bucket\/x: expected s3:\/\/BUCKET/);
  // a bucket the server does not have: the SDK's error, and no current.json anywhere
  await assert.rejects(publish(['--db', db(), '--to', 's3://missing-bucket/crkb']), /bucket does not exist/i);
  assert.equal((await fetch(`${endpoint}/missing-bucket/crkb/current.json`)).status, 404);
});
