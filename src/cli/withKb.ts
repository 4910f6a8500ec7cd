import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { KnowledgeBase } from '../query/KnowledgeBase.js';
import { QueryError } from '../query/QueryError.js';
import { defaultDbFile } from './options.js';
import { UsageError } from './UsageError.js';

/** The database file a command reads (--db, $CRKB_DB or data/crkb.db), or a UsageError saying how to build it. */
export function existingDbFile(file: string | undefined, usage: string): string {
  const abs = resolve(file ?? defaultDbFile());
  if (!existsSync(abs))
    throw new UsageError(`database ${file ?? defaultDbFile()} does not exist: build it with "npx crkb ingest --archive ../shared/corpus"`, usage);
  return abs;
}

/** A query-layer error as a usage mistake (naming the argument once), or null for anything else. */
function usageErrorOf(e: unknown, usage: string): UsageError | null {
  if (!(e instanceof QueryError) || e.code !== 'BAD_INPUT') return null;
  const a = e.details.argument;
  return new UsageError(a && !e.message.startsWith(a) ? `${a}: ${e.message}` : e.message, usage);
}

/** An argument read with the query layer's edge kit (src/query/edgeArgs.ts), before any database is opened: a mistake is a UsageError. */
export function cliArg<T>(read: () => T, usage: string): T {
  try {
    return read();
  } catch (e) {
    throw usageErrorOf(e, usage) ?? e;
  }
}

/**
 * Runs a query command against the database (--db, $CRKB_DB or data/crkb.db), translating the
 * query layer's errors once: a bad argument is a UsageError (usage, exit 1), a missing rule or
 * term one line on stderr with the nearest candidates (exit 1).
 */
export async function withKb(command: string, file: string | undefined, usage: string, f: (kb: KnowledgeBase) => number | Promise<number>): Promise<number> {
  const kb = KnowledgeBase.open(existingDbFile(file, usage));
  try {
    return await f(kb);
  } catch (e) {
    if (!(e instanceof QueryError)) throw e;
    const usageError = usageErrorOf(e, usage);
    if (usageError) throw usageError;
    const s = e.details.suggestions ?? [];
    console.error(`crkb ${command}: ${e.message}${s.length > 0 ? `; nearest: ${s.join(', ')}` : ''}`);
    return 1;
  } finally {
    kb.close();
  }
}
