import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openImageDb, openReadOnlyDb, type Db } from '../../src/db/openDb.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { buildServer } from '../../src/server/buildServer.js';
import { fixtureDb } from '../server/fixtures.js';
import { tempDir } from '../support/tempDir.js';

/** Whether a write reaches the database, even after a statement turns query_only off. */
function refusesWrites(db: Db): void {
  assert.equal(db.pragma('query_only', { simple: true }), 1);
  assert.throws(() => db.prepare(`INSERT INTO meta (key, value) VALUES ('probe', 'x')`).run(), /readonly/i);
  db.pragma('query_only = OFF');
  assert.throws(() => db.prepare(`INSERT INTO meta (key, value) VALUES ('probe', 'x')`).run(), /readonly/i);
  assert.equal(db.readonly, true);
}

test('the database is opened read-only however it is opened for reading: a file, a served file, an image', async () => {
  const dir = tempDir('crkb-readonly-');
  const file = path.join(dir, 'crkb.db');
  fixtureDb(file).close();
  const bytes = fs.readFileSync(file);
  const db = openReadOnlyDb(file);
  try {
    refusesWrites(db);
  } finally {
    db.close();
  }
  const kb = KnowledgeBase.open(file);
  try {
    refusesWrites(kb.db);
  } finally {
    kb.close();
  }
  const source = openReadOnlyDb(file);
  const img = openImageDb(source.serialize());
  source.close();
  try {
    refusesWrites(img);
  } finally {
    img.close();
  }
  const built = await buildServer({ dbFile: file, heavyThreads: 0 });
  try {
    refusesWrites(built.kb().db);
  } finally {
    await built.close();
  }
  assert.ok(fs.readFileSync(file).equals(bytes));
});
