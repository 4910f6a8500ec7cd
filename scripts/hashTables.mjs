#!/usr/bin/env node
// Prints one sha256 per table of a crkb database (every row, ordered by every column, as JSON), so two ingests can be
// compared: `node scripts/hashTables.mjs a.db > a.txt; node scripts/hashTables.mjs b.db > b.txt; diff a.txt b.txt`.
// source_files.ingested_at (the time of the run) is left out.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/hashTables.mjs FILE.db');
  process.exit(1);
}
const db = new Database(file, { readonly: true, fileMustExist: true });
const skip = new Set(['ingested_at']);
const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();
for (const table of tables) {
  const columns = db
    .prepare(`SELECT name FROM pragma_table_info(?)`)
    .pluck()
    .all(table)
    .filter((c) => !skip.has(c))
    .map((c) => `"${c}"`);
  const hash = createHash('sha256');
  let rows = 0;
  for (const row of db
    .prepare(`SELECT ${columns.join(', ')} FROM "${table}" ORDER BY ${columns.join(', ')}`)
    .raw()
    .iterate()) {
    hash.update(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) + '\n');
    rows++;
  }
  console.log(`${table}\t${rows}\t${hash.digest('hex')}`);
}
