/**
 * Builds the corpus database the tests share (read-only) once per `npm test` run, before the test
 * files start: dist/test-corpus/corpus.db from the few real editions the tests read.
 */
import fs from 'node:fs';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { CORPUS, MISSING_CORPUS, SHARED_DB, SHARED_FILES } from '../cli/corpusDb.js';

if (!fs.existsSync(CORPUS)) {
  // one clear failure before any test runs, not one per test that reads the corpus
  console.error(`npm test: ${MISSING_CORPUS}.`);
  process.exit(1);
}
if (!fs.existsSync(SHARED_DB)) {
  fs.mkdirSync(SHARED_DB.replace(/\/[^/]+$/, ''), { recursive: true });
  await runIngest({ inputs: expandInputs(SHARED_FILES.map((f) => `${CORPUS}/${f}`)), dbFile: SHARED_DB });
}
