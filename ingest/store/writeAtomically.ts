import { copyFileSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { openWritableDb } from '../../src/db/openDb.js';
import { Writer } from './Writer.js';

/**
 * Builds into a temporary copy and renames it over the database only on success, and only
 * when `fn` says something was written. A full disk (or quota) fails the run with a message
 * naming the copy being written; the database itself is never written, so it stays as it was.
 */
export async function writeAtomically(dbFile: string, maxPages: number | undefined, fn: (writer: Writer) => Promise<boolean>): Promise<void> {
  const tmp = `${dbFile}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  try {
    if (existsSync(dbFile)) copyFileSync(dbFile, tmp);
    const db = openWritableDb(tmp);
    let keep = false;
    try {
      // The copy is thrown away on failure, so it needs no journal on disk; and one
      // transaction for the whole run writes every page once at the end instead of at each
      // edition's commit (fn opens no savepoint where it can help it: see ingestLocked).
      db.pragma('journal_mode = MEMORY');
      // A run's pages stay in SQLite's cache until the commit unless the cache is full (it then writes some to
      // the copy early): at openWritableDb's 64 MB the whole 44 MB database of the corpus with the policy
      // documents was held in memory, on top of the threads' heaps at the run's peak. 8 MB took 20-30 MB off
      // that peak, for no measurable CPU.
      db.pragma('cache_size = -8000');
      if (maxPages !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPages)}`);
      db.exec('BEGIN');
      const writer = new Writer(db);
      try {
        keep = await fn(writer);
      } catch (e) {
        // no compression may write once the database is closed
        await writer.publishedStored().catch(() => {});
        throw e;
      }
      // the published files compressed meanwhile are written before the commit
      await writer.publishedStored();
      if (keep) {
        db.exec('COMMIT');
        db.pragma('optimize');
      }
    } finally {
      db.close();
    }
    if (keep) renameSync(tmp, dbFile);
    else rmSync(tmp, { force: true });
  } catch (e) {
    rmSync(tmp, { force: true });
    const why = fullDisk(e);
    if (why === null) throw e;
    const previous = existsSync(dbFile) ? 'the previous database is intact' : 'no database was created';
    throw new Error(`${why} while writing ${tmp} (the new copy of ${dbFile}); nothing was changed: ${previous}`, { cause: e });
  }
}

/** What a write error says about the disk ("the disk is full"), or null when it is some other error. */
function fullDisk(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'the disk is full';
  if (code === 'EDQUOT') return 'the disk quota is exceeded';
  return null;
}

/**
 * Deletes temporary copies of the database left by ingest runs that were killed. Called under
 * the ingest lock, so no other run is writing one: every copy is stale, even one whose process
 * id now belongs to another process.
 */
export function removeStaleCopies(dbFile: string): void {
  const dir = dirname(resolve(dbFile));
  const prefix = `${basename(dbFile)}.tmp-`;
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length))) rmSync(join(dir, name), { force: true });
  }
}
