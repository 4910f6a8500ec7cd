import { after, before } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';

/** The real corpus beside the project. */
export const CORPUS = path.resolve(process.cwd(), '../shared/corpus');
/** Skip reason for corpus tests when the corpus is missing. */
export const skip = !fs.existsSync(CORPUS) && 'corpus not found';

/** The editions most CLI tests read: the 2021 insertion of 309 and 706, and the Magic 2010 rewrite. */
export const TRANSITIONS = ['rulesraker/2021-06-09.txt', 'rulesraker/2021-07-12.txt', 'mtg-cr/CR-2009-05-01.txt', 'rulesraker/2009-07-11.txt'];

/** Registers hooks that ingest corpus files into a temporary database for this test file; returns its path getter. */
export function corpusDb(files: string[] = TRANSITIONS): () => string {
  let dir = '';
  let db = '';
  before(async () => {
    if (skip) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-cli-'));
    db = path.join(dir, 'x.db');
    await runIngest({ inputs: expandInputs(files.map((f) => path.join(CORPUS, f))), dbFile: db });
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => db;
}

/** Runs a command's run(argv) with --db, capturing stdout and stderr. */
export async function captureCli(
  run: (argv: string[]) => Promise<number>,
  db: string,
  argv: string[],
): Promise<{ code: number; out: string; err: string }> {
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
