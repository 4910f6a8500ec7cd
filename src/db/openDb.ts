import Database from 'better-sqlite3';
import { readFileSync, readdirSync } from 'node:fs';
import { familyCheckSql } from '../core/families.js';
import { schemaDir } from '../core/projectFiles.js';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

export type Db = Database.Database;

const ddl = new Map<string, string>();

/** The DDL of a folder's *.sql files, in file-name order. */
function ddlOf(dir: string): string {
  let sql = ddl.get(dir);
  if (sql === undefined) {
    sql = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    ddl.set(dir, sql);
  }
  return sql;
}

/** All DDL in schema/*.sql, in file-name order. */
function schemaSql(): string {
  return ddlOf(schemaDir());
}

let addon: { nativeBinding?: string } | null = null;

// better-sqlite3 finds its addon through the `bindings` package, which probes a dozen paths on
// every process's first open (about 5 ms); naming the file skips that.
function addonOption(): { nativeBinding?: string } {
  if (addon === null) {
    try {
      addon = { nativeBinding: createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node') };
    } catch {
      addon = {};
    }
  }
  return addon;
}

/** Opens (and creates if needed) a database for writing, with the schema applied. ':memory:' works. */
export function openWritableDb(file: string): Db {
  const db = new Database(file === ':memory:' ? file : resolve(file), addonOption());
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -64000');
  db.exec(schemaSql());
  widenFamilyChecks(db);
  db.pragma('foreign_keys = ON');
  return db;
}

// the family CHECK a table was created with: a database written before the tournament documents (cr, rulings),
// or before the JAR (cr, rulings, mtr, ipg), allows fewer families than FAMILIES
const FAMILY_CHECK = /family IN \([^)]*\)/;

/**
 * Rebuilds the tables whose family CHECK predates a family of FAMILIES (SQLite cannot alter a
 * CHECK; defensive mode forbids editing the schema table), the way SQLite's documentation describes:
 * a new table, the rows copied, the old one dropped, the new one renamed, foreign keys off meanwhile.
 */
function widenFamilyChecks(db: Db): void {
  const current = familyCheckSql();
  const stale = (
    db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name IN ('editions', 'fragment_sources')`).all() as Array<{
      name: string;
      sql: string;
    }>
  ).filter(({ sql }) => FAMILY_CHECK.exec(sql)?.[0] !== current);
  if (stale.length === 0) return;
  db.transaction(() => {
    for (const { name, sql } of stale) {
      const widened = sql.replace(FAMILY_CHECK, current).replace(/^CREATE TABLE\s+("?)(\w+)\1/i, `CREATE TABLE ${name}__widened`);
      db.exec(`${widened}; INSERT INTO ${name}__widened SELECT * FROM ${name}; DROP TABLE ${name}; ALTER TABLE ${name}__widened RENAME TO ${name};`);
    }
    // the dropped tables' indexes
    db.exec(schemaSql());
  })();
}

/** Opens an in-memory database with the DDL of schema/search/*.sql (a search index). */
export function openSearchDb(): Db {
  const db = new Database(':memory:', addonOption());
  db.exec(ddlOf(join(schemaDir(), 'search')));
  return db;
}

/** Opens a file as a bare database used only for its lock: no schema, and a busy lock fails at once instead of waiting. */
export function openLockDb(file: string): Db {
  return new Database(resolve(file), { timeout: 0, ...addonOption() });
}

/** Opens an existing database read-only, as the server and query commands do. */
export function openReadOnlyDb(file: string): Db {
  const db = new Database(resolve(file), { readonly: true, fileMustExist: true, ...addonOption() });
  db.pragma('query_only = ON');
  // Resident memory: mapped pages of the file count in RSS, and so does the page cache; the
  // server keeps its hot data in memory itself, so reads go through a small cache.
  db.pragma('cache_size = -4000');
  db.pragma('mmap_size = 0');
  return db;
}

/** Opens a serialized database (an image made by `db.serialize()`) read-only, in memory. */
export function openImageDb(image: Uint8Array): Db {
  const db = new Database(Buffer.from(image.buffer, image.byteOffset, image.byteLength), { readonly: true, ...addonOption() });
  db.pragma('query_only = ON');
  return db;
}
