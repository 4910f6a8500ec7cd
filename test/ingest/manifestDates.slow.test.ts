import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { findEffectiveDate } from '../../ingest/parse/effectiveDate.js';
import { readWordDocument, wordKindOf } from '../../ingest/store/readWordDocument.js';
import { readManifest } from '../../ingest/store/sources.js';
import { projectRoot } from '../../src/core/projectFiles.js';
import { CORPUS } from '../cli/corpusDb.js';

test("every manifest edition's effective date is the one its documents state, where the corpus has them", async () => {
  const manifest = readManifest(join(projectRoot(), 'data', 'sources.json'));
  const wrong: string[] = [];
  let checked = 0;
  for (const e of manifest.editions) {
    for (const f of e.files) {
      const file = join(CORPUS, f.path);
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      const kind = wordKindOf(file, bytes);
      const text = kind ? (await readWordDocument(file, bytes, kind)).join('\n') : decodeBuffer(bytes).text;
      const stated = findEffectiveDate(text);
      checked++;
      // (the 1999 Rulings Summaries state no CR effective date)
      if (stated !== null && stated !== e.effectiveDate) wrong.push(`${f.path}: states ${stated}, manifest ${e.effectiveDate}`);
    }
  }
  assert.ok(checked > 200, `checked ${checked} files`);
  assert.deepEqual(wrong, []);
});
