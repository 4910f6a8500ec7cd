import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DbRefused, openHeldDb, openVerifiedDb } from '../../src/db/openVerifiedDb.js';
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

test("SQLite's quick_check runs once for the same bytes (a marker beside the file names their sha256); other bytes are checked: a corrupt file is refused", () => {
  const dir = tempDir('crkb-verify-');
  const file = path.join(dir, 'crkb.db');
  writeEditionDb(file, 'First text.');
  const open = (): string => {
    const v = openVerifiedDb(file);
    v.db.close();
    fs.closeSync(v.file.fd);
    return v.file.sha256;
  };
  const sha256 = open();
  assert.equal(fs.readFileSync(`${file}.checked`, 'utf8'), `${sha256}\n`, 'the bytes that passed are named beside the file');
  assert.equal(open(), sha256);
  // the same file corrupted in place: its bytes are not the ones named, so they are checked and refused
  writeRefusedDb(file, 'corrupt');
  assert.throws(open, (e: unknown) => e instanceof DbRefused && e.file === file && e.message.startsWith(file) && REFUSED.corrupt.test(e.reason));
  assert.equal(fs.readFileSync(`${file}.checked`, 'utf8'), `${sha256}\n`, 'a refused file is never named');
  // the marker is honoured for exactly the bytes it names: naming the corrupt bytes skips the check
  // (this corruption is in a page the other checks do not read)
  const corrupt = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  fs.writeFileSync(`${file}.checked`, `${corrupt}\n`);
  assert.equal(open(), corrupt);
  // a marker that cannot be written (the folder is read-only) only means the check runs every time
  fs.rmSync(`${file}.checked`);
  fs.rmSync(file);
  writeEditionDb(file, 'Second text.');
  fs.chmodSync(dir, 0o555);
  try {
    open();
  } finally {
    fs.chmodSync(dir, 0o755);
  }
  assert.equal(fs.readdirSync(dir).filter((f) => f.includes('.checked')).length, process.getuid?.() === 0 ? 1 : 0);
});

test('another thread opens the held file in place while it is as verified; written meanwhile, it is refused', () => {
  const dir = tempDir('crkb-verify-');
  const file = path.join(dir, 'crkb.db');
  writeEditionDb(file, 'First text.');
  const v = openVerifiedDb(file);
  try {
    const db = openHeldDb(v.file);
    assert.ok(db, 'opened through /proc/self/fd');
    assert.match(String(db.prepare(`SELECT body FROM texts WHERE body LIKE '%text.'`).pluck().get()), /First text/);
    db.close();
    // the same file written in place (same inode): not what was verified
    const w = fs.openSync(file, 'r+');
    fs.writeSync(w, Buffer.from('x'), 0, 1, v.file.size);
    fs.closeSync(w);
    assert.throws(() => openHeldDb(v.file), /changed since it was verified/);
  } finally {
    v.db.close();
    fs.closeSync(v.file.fd);
  }
});
