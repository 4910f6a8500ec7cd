import { setTimeout as sleep } from 'node:timers/promises';
import { openLockDb } from '../../src/db/openDb.js';
import { IngestError } from '../parse/IngestError.js';

/** A held ingest lock. */
export interface DatabaseLock {
  /** The lock file beside the database. */
  file: string;
  /** Lets the next run in (again: nothing). */
  release(): void;
}

/** How long to wait for another ingest, and whom to tell that we wait. */
export interface LockOptions {
  /** Milliseconds to wait for another ingest of the same database to finish (0: fail at once). */
  waitMs: number;
  /** Called once when the lock is busy and waiting starts. */
  onWait?: ((waitMs: number) => void) | undefined;
}

const POLL_MS = 100;

/** Takes the exclusive ingest lock of `dbFile`, waiting up to `opts.waitMs` for another run; throws an IngestError naming the database if it cannot. */
export async function lockDatabase(dbFile: string, opts: LockOptions): Promise<DatabaseLock> {
  // An SQLite (fcntl) lock on a file beside the database: the operating system drops it when the
  // process ends, even by kill -9, so a killed run never leaves a stale lock behind.
  const file = `${dbFile}.lock`;
  let db;
  try {
    db = openLockDb(file);
  } catch (e) {
    throw new IngestError(dbFile, `cannot create the lock file ${file}: ${(e as Error).message}`);
  }
  const deadline = Date.now() + opts.waitMs;
  let waiting = false;
  for (;;) {
    try {
      // The file is never removed: a run waiting on it must lock the same file as the run it waits for.
      db.exec('BEGIN EXCLUSIVE');
      const held = db;
      return {
        file,
        release: () => {
          if (!held.open) return;
          held.exec('ROLLBACK');
          held.close();
        },
      };
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY') {
        db.close();
        throw new IngestError(dbFile, `cannot lock ${file}: ${(e as Error).message}`);
      }
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      db.close();
      const waited = opts.waitMs > 0 ? `, still after ${Math.round(opts.waitMs / 100) / 10} s` : '';
      throw new IngestError(dbFile, `another ingest is writing this database${waited}; nothing was written (try again, or wait longer with --wait SECONDS)`);
    }
    if (!waiting) {
      waiting = true;
      opts.onWait?.(opts.waitMs);
    }
    // polled, not SQLite's busy timeout: that one would block this thread, and the run holding the lock may be in this process
    await sleep(Math.min(POLL_MS, left));
  }
}
