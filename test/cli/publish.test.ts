import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../src/cli/publish.js';
import { parseArtifactManifest } from '../../src/integrations/fleet/artifactManifest.js';
import { captureCli, corpusDb } from './corpusDb.js';
import { tempDir } from '../support/tempDir.js';

const db = corpusDb();

test('publish writes crkb-<sha256>.db and a current.json naming it, and nothing else', async () => {
  const dir = tempDir('crkb-publish-');
  const r = await captureCli(run, db(), ['--to', join(dir, 'out')]);
  assert.equal(r.code, 0, r.err);
  const sha = createHash('sha256').update(readFileSync(db())).digest('hex');
  assert.deepEqual(readdirSync(join(dir, 'out')).sort(), [`crkb-${sha}.db`, 'current.json']);
  const m = parseArtifactManifest(readFileSync(join(dir, 'out', 'current.json'), 'utf8'), 'current.json');
  assert.equal(m.sha256, sha);
  assert.equal(m.size, readFileSync(db()).length);
  assert.ok(readFileSync(join(dir, 'out', m.file)).equals(readFileSync(db())));
  assert.ok(m.editions >= 2, `editions ${m.editions}`);
  assert.match(m.newestEdition ?? '', /^\d{4}-\d\d-\d\d$/);
  assert.equal(m.crkbVersion, (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  // again: the same artifact, no temporary files left
  const again = await captureCli(run, db(), ['--to', join(dir, 'out')]);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /already there/);
  assert.equal(readdirSync(join(dir, 'out')).length, 2);
});

test('publish refuses a file serve would refuse and writes nothing', async () => {
  const dir = tempDir('crkb-publish-');
  const bad = join(dir, 'bad.db');
  writeFileSync(bad, 'not a database');
  const r = await captureCli(run, bad, ['--to', join(dir, 'out')]);
  assert.equal(r.code, 1);
  assert.match(r.err, /bad\.db: not an SQLite database/);
  assert.throws(() => readdirSync(join(dir, 'out')));
});

test('a manifest whose file does not name its hash is refused', () => {
  const m = { sha256: 'a'.repeat(64), file: `crkb-${'b'.repeat(64)}.db`, size: 1, editions: 1, newestEdition: null, builtAt: '', crkbVersion: '0' };
  assert.throws(() => parseArtifactManifest(JSON.stringify(m), 'x/current.json'), /x\/current\.json: file crkb-b+\.db does not name sha256/);
  assert.throws(() => parseArtifactManifest('{', 'x/current.json'), /x\/current\.json: not JSON/);
});
