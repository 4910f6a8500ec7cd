import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { parseCrText } from '../../ingest/parse/parseCrText.js';
import type { ParsedDocument } from '../../src/core/types.js';

/** The shared corpus folder, relative to the repository root tests run from. */
export const CORPUS = path.resolve(process.cwd(), '../shared/corpus');

/** Parses one corpus file (path relative to the corpus folder) with the official text parser. */
export function loadEdition(rel: string): ParsedDocument {
  return parseCrText(decodeBuffer(fs.readFileSync(path.join(CORPUS, rel))).text);
}
