import type { Db } from './openDb.js';

/**
 * Version of what the database stores derived from texts (hash53, normalizeText): a database
 * written with another version must be rebuilt, since its hashes would not compare.
 */
export const STORE_FORMAT = '2';

/** Why a database cannot be read or extended by this version of crkb (another STORE_FORMAT), or null. */
export function storeFormatProblem(db: Db): string | null {
  const format = db.prepare(`SELECT value FROM meta WHERE key = 'format'`).pluck().get() as string | undefined;
  if (format === STORE_FORMAT || db.prepare('SELECT count(*) FROM texts').pluck().get() === 0) return null;
  return `written by another version of crkb (store format ${format ?? '1'}; this one writes ${STORE_FORMAT}): delete it and ingest again`;
}
