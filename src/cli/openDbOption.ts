import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openReadOnlyDb, type Db } from '../db/openDb.js';
import { UsageError } from './UsageError.js';

/** Opens the --db file read-only, or explains how to build it. */
export function openDbOption(file: string, usage: string): Db {
  const abs = resolve(file);
  if (!existsSync(abs)) {
    throw new UsageError(`database ${file} does not exist: build it with "npx crkb ingest --archive ../shared/corpus"`, usage);
  }
  return openReadOnlyDb(abs);
}
