import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { openWritableDb } from '../../src/db/openDb.js';
import { doc, fixtureDb } from '../server/fixtures.js';

/** Writes a one-edition database whose rule 100.1 reads `text`. */
export function writeEditionDb(file: string, text: string): void {
  fixtureDb(file, [
    doc(
      '2021-07-23',
      [
        ['100', 'General'],
        ['100.1', text],
      ],
      [],
    ),
  ]).close();
}

/** Writes the fixture database padded to about `bytes` with incompressible text (more than loopback buffers hold). */
export function writePaddedDb(file: string, bytes: number): void {
  const db = fixtureDb(file);
  db.prepare(`INSERT INTO meta (key, value) VALUES ('padding', ?)`).run(randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64'));
  db.close();
}

/** Files crkb must refuse to serve, and what the refusal says. */
export const REFUSED = {
  corrupt: /fails SQLite's integrity check|malformed/,
  'no editions': /holds no CR editions/,
  'other schema': /not a crkb database of this version \(missing meta, editions/,
  'older format': /written by another version of crkb \(store format 1/,
  'not SQLite': /not an SQLite database/,
  empty: /empty file/,
} as const;

/** Writes a database file of one of the kinds crkb refuses. */
export function writeRefusedDb(file: string, kind: keyof typeof REFUSED): void {
  fs.rmSync(file, { force: true });
  if (kind === 'corrupt') {
    writeEditionDb(file, 'Corrupt text.');
    // a page in the middle overwritten with garbage: SQLite's header still reads fine
    const bytes = fs.readFileSync(file);
    for (let i = 2 * 4096; i < 3 * 4096; i++) bytes[i] = (i * 31) & 255;
    fs.writeFileSync(file, bytes);
  } else if (kind === 'no editions') {
    openWritableDb(file).close();
  } else if (kind === 'other schema') {
    const db = new Database(file);
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL); INSERT INTO notes (body) VALUES ('hello')");
    db.close();
  } else if (kind === 'older format') {
    const db = fixtureDb(file);
    db.prepare(`UPDATE meta SET value = '1' WHERE key = 'format'`).run();
    db.close();
  } else if (kind === 'not SQLite') {
    fs.writeFileSync(file, 'id,text\n1,hello\n');
  } else {
    fs.writeFileSync(file, '');
  }
}
