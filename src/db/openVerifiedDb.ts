import { closeSync, existsSync, fstatSync, openSync, readFileSync, readlinkSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openReadOnlyDb, openWritableDb, type Db } from './openDb.js';
import { storeFormatProblem } from './storeFormat.js';

/** A database file as it was verified, held open: it reads the same even after its path is replaced or deleted. */
export interface DbFile {
  /** The path it was opened by (absolute). */
  path: string;
  /** A descriptor of the verified file (read it with positions: it is shared). */
  fd: number;
  /** sha256 of its bytes, hex. */
  sha256: string;
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/** A database file crkb will not serve, and why (`reason` is one line, without the file name). */
export class DbRefused extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

let expected: Map<string, string[]> | null = null;

/** The tables of schema/*.sql and their columns. */
function expectedTables(): Map<string, string[]> {
  if (expected === null) {
    const mem = openWritableDb(':memory:');
    expected = tablesOf(mem);
    mem.close();
  }
  return expected;
}

function tablesOf(db: Db): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const names = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[];
  for (const name of names) out.set(name, db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(name) as string[]);
  return out;
}

/** Why an open database is not one this crkb serves, or null; `integrity` false skips SQLite's quick_check (the same bytes passed it). */
function problemOf(db: Db, integrity: boolean): string | null {
  const check = integrity ? (db.prepare('PRAGMA quick_check(1)').pluck().get() as string) : 'ok';
  if (check !== 'ok')
    return `fails SQLite's integrity check (${check
      .replace(/\*\*\* in database \w+ \*\*\*/, '')
      .trim()
      .replace(/\s*\n\s*/g, '; ')})`;
  const have = tablesOf(db);
  const missing: string[] = [];
  for (const [table, columns] of expectedTables()) {
    const got = have.get(table);
    if (!got) missing.push(table);
    else {
      const lacking = columns.filter((c) => !got.includes(c));
      if (lacking.length > 0) missing.push(`${table}.${lacking.join(`, ${table}.`)}`);
    }
  }
  if (missing.length > 0) {
    const shown = missing.slice(0, 4).join(', ') + (missing.length > 4 ? ` and ${missing.length - 4} more` : '');
    return `not a crkb database of this version (missing ${shown})`;
  }
  const format = storeFormatProblem(db);
  if (format) return format;
  if (db.prepare(`SELECT count(*) FROM editions WHERE family = 'cr'`).pluck().get() === 0) return 'holds no CR editions';
  return null;
}

// The file beside a database naming the sha256 of the bytes that last passed SQLite's quick_check
// there: a server process, a reload or a restart of the same file skips the check (a whole read of
// the file, the larger part of opening it), while any other bytes (a corrupt or replaced file) are
// checked. The hash is taken anyway: the heavy worker and the metrics name the file by it.
const markerOf = (path: string): string => `${path}.checked`;

function passedBefore(path: string, sha256: string): boolean {
  try {
    return readFileSync(markerOf(path), 'latin1').trim() === sha256;
  } catch {
    return false;
  }
}

// written aside, then renamed; a folder that cannot be written only means the check runs every time
function rememberPassed(path: string, sha256: string): void {
  const tmp = `${markerOf(path)}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, `${sha256}\n`);
    renameSync(tmp, markerOf(path));
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** sha256 (hex) of a file's first `size` bytes, read through its descriptor a megabyte at a time. */
function sha256Of(fd: number, size: number): string {
  // node:crypto on first use, not at import: a command that reads a database imports this module and never hashes (4 ms a call)
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let pos = 0; pos < size;) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n === 0) break;
    hash.update(buf.subarray(0, n));
    pos += n;
  }
  return hash.digest('hex');
}

/**
 * Opens a database file read-only for serving, after checking it: SQLite (quick_check, unless these
 * very bytes passed it before: see markerOf), crkb's tables and store format, at least one CR edition.
 * Holds the file open (SQLite reads the same inode) and hashes it. Throws DbRefused saying why a file
 * is not served. `remember: false` writes no marker.
 */
export function openVerifiedDb(file: string, opts: { remember?: boolean } = {}): { db: Db; file: DbFile } {
  const path = resolve(file);
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (e) {
      throw new DbRefused(path, (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message);
    }
    let db: Db | null = null;
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new DbRefused(path, 'not a regular file');
      const header = Buffer.alloc(SQLITE_HEADER.length);
      readSync(fd, header, 0, header.length, 0);
      if (st.size === 0) throw new DbRefused(path, 'empty file');
      if (!header.equals(SQLITE_HEADER)) throw new DbRefused(path, 'not an SQLite database');
      try {
        db = openReadOnlyDb(path);
      } catch (e) {
        throw new DbRefused(path, `cannot be opened: ${(e as Error).message}`);
      }
      // SQLite opened the path afresh: it must still name the file this descriptor holds
      const now = statSync(path, { throwIfNoEntry: false });
      if (!now || now.ino !== st.ino || now.dev !== st.dev) {
        if (attempt < 3) {
          db.close();
          db = null;
          closeSync(fd);
          continue;
        }
        throw new DbRefused(path, 'replaced while being opened, again and again');
      }
      const sha256 = sha256Of(fd, st.size);
      const checked = passedBefore(path, sha256);
      let problem: string | null;
      try {
        problem = problemOf(db, !checked);
      } catch (e) {
        problem = `unreadable: ${(e as Error).message}`;
      }
      if (problem) throw new DbRefused(path, problem);
      const after = fstatSync(fd);
      if (after.size !== st.size || after.mtimeMs !== st.mtimeMs) throw new DbRefused(path, 'being written (it changed while it was checked)');
      if (!checked && opts.remember !== false) rememberPassed(path, sha256);
      return { db, file: { path, fd, sha256, size: st.size, mtimeMs: st.mtimeMs, dev: st.dev, ino: st.ino } };
    } catch (e) {
      db?.close();
      closeSync(fd);
      throw e;
    }
  }
}

/**
 * Opens, read-only, a database file another thread of this process verified and holds open, by its
 * descriptor, after checking it is still as verified (size and modification time: the verifying
 * thread's own connection reads the file live with the same assurance, and hashing it again cost a
 * whole read of it at every start): SQLite opens the path the descriptor's /proc/self/fd link names,
 * which must be the same file before and after (else, or without /proc, null: the caller reads the
 * bytes through the descriptor instead).
 */
export function openHeldDb(held: { fd: number; size: number; mtimeMs: number }): Db | null {
  const link = `/proc/self/fd/${held.fd}`;
  if (!existsSync(link)) return null;
  const st = fstatSync(held.fd);
  if (st.size !== held.size || st.mtimeMs !== held.mtimeMs) throw new Error('the database file changed since it was verified');
  const same = (): boolean => {
    const now = statSync(readlinkSync(link), { throwIfNoEntry: false });
    return now !== undefined && now.ino === st.ino && now.dev === st.dev;
  };
  if (!same()) return null;
  const db = openReadOnlyDb(link);
  if (same()) return db;
  db.close();
  return null;
}

/**
 * Why `file` would be refused as a served database, or null when it passes every check (nothing is kept open).
 * `remember`: a file that passed leaves the marker a server's first start then trusts (ingest's output).
 */
export function refusalOf(file: string, remember = false): string | null {
  try {
    // (by default no marker: a file checked before it is moved into place, as a replica's download)
    const v = openVerifiedDb(file, { remember });
    v.db.close();
    closeSync(v.file.fd);
    return null;
  } catch (e) {
    if (e instanceof DbRefused) return e.reason;
    throw e;
  }
}
