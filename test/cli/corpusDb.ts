import { before } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { projectRoot } from '../../src/core/projectFiles.js';

/** The real corpus beside the project. */
export const CORPUS = path.resolve(process.cwd(), '../shared/corpus');
/** Why the tests cannot run when the corpus is missing (they never skip: a missing corpus fails the run). */
export const MISSING_CORPUS = `the tests read the real corpus at ${CORPUS} (the Comprehensive Rules archive, laid beside the project as ../shared/corpus), and it is missing`;

/** The editions most tests read: the 2021 insertion of 309 and 706, and the Magic 2010 rewrite. */
export const TRANSITIONS = ['rulesraker/2021-06-09.txt', 'rulesraker/2021-07-12.txt', 'mtg-cr/CR-2009-05-01.txt', 'rulesraker/2009-07-11.txt'];
/** What the shared test database holds. */
export const SHARED_FILES = TRANSITIONS;
/** The shared test database: built once per run (test/support/buildCorpusDb), read-only for the tests. */
export const SHARED_DB = path.join(projectRoot(), 'dist', 'test-corpus', 'corpus.db');

/** The shared corpus database (built here if the run did not build it, as when one file is run alone). */
export function corpusDb(): () => string {
  before(async () => {
    if (!fs.existsSync(CORPUS)) throw new Error(MISSING_CORPUS);
    if (fs.existsSync(SHARED_DB)) return;
    fs.mkdirSync(path.dirname(SHARED_DB), { recursive: true });
    // the ingest lock makes concurrent builders wait; the second finds every file stored
    await runIngest({ inputs: expandInputs(SHARED_FILES.map((f) => path.join(CORPUS, f))), dbFile: SHARED_DB });
  });
  return () => SHARED_DB;
}

/** Runs a command's run(argv) with --db, capturing stdout and stderr. */
export async function captureCli(run: (argv: string[]) => Promise<number>, db: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const ow = process.stdout.write.bind(process.stdout);
  const oe = console.error;
  process.stdout.write = ((s: string | Uint8Array) => ((out += String(s)), true)) as typeof process.stdout.write;
  console.error = (...a: unknown[]) => void (err += a.join(' ') + '\n');
  try {
    return { code: await run([...argv, '--db', db]), out, err };
  } finally {
    process.stdout.write = ow;
    console.error = oe;
  }
}
