import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DbRefused, openVerifiedDb } from '../../src/db/openVerifiedDb.js';
import { buildServer } from '../../src/server/buildServer.js';
import { REFUSED, writeEditionDb, writeRefusedDb } from '../support/databases.js';
import { tempDir } from '../support/tempDir.js';

test('a database crkb can serve is opened, hashed and held open: the descriptor reads the same file after the path is replaced', () => {
  const dir = tempDir('crkb-verify-');
  const file = path.join(dir, 'crkb.db');
  writeEditionDb(file, 'First text.');
  const bytes = fs.readFileSync(file);
  const v = openVerifiedDb(file);
  try {
    assert.equal(v.file.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(v.file.size, bytes.length);
    assert.equal(v.file.ino, fs.statSync(file).ino);
    writeEditionDb(path.join(dir, 'next.db'), 'Second text.');
    fs.renameSync(path.join(dir, 'next.db'), file);
    const held = Buffer.alloc(v.file.size);
    fs.readSync(v.file.fd, held, 0, held.length, 0);
    assert.ok(held.equals(bytes), 'the descriptor still reads the verified file');
    assert.match(String(v.db.prepare(`SELECT body FROM texts WHERE body LIKE '%text.'`).pluck().get()), /First text/, 'and so does SQLite');
  } finally {
    v.db.close();
    fs.closeSync(v.file.fd);
  }
});

test('a corrupt, empty, non-SQLite, zero-edition, other-schema or older-format file is refused with the reason', async () => {
  const dir = tempDir('crkb-verify-');
  for (const kind of Object.keys(REFUSED) as Array<keyof typeof REFUSED>) {
    const file = path.join(dir, `${kind.replace(' ', '-')}.db`);
    writeRefusedDb(file, kind);
    assert.throws(
      () => openVerifiedDb(file),
      (e: unknown) => e instanceof DbRefused && e.file === file && REFUSED[kind].test(e.reason) && !e.reason.includes('\n'),
      kind,
    );
    // the server refuses it the same way (it used to serve a zero-edition file: every answer a 400)
    await assert.rejects(buildServer({ dbFile: file }), (e: unknown) => e instanceof DbRefused && REFUSED[kind].test(e.reason), `buildServer: ${kind}`);
  }
  assert.throws(
    () => openVerifiedDb(path.join(dir, 'missing.db')),
    (e: unknown) => e instanceof DbRefused && e.reason === 'no such file',
  );
});
