import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs, readManifest } from '../../ingest/store/sources.js';
import { projectRoot } from '../../src/core/projectFiles.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { CORPUS } from '../cli/corpusDb.js';
import { tempDir } from '../support/tempDir.js';

// 2021-06-18 (labelled 2021-06-09): the official Word document, and a third-party copy of its text with straight quotes,
// which ranks above a Word document on typography alone (a text file, more characters).
const manifest = readManifest(join(projectRoot(), 'data', 'sources.json'));
const DOCX = join(CORPUS, 'rulesraker-documents/docx/2021-06-09.docx');

function thirdPartyCopy(dir: string): string {
  const text = decodeBuffer(readFileSync(join(CORPUS, 'rulesraker/2021-06-09.txt')))
    .text.replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"');
  const file = join(dir, 'CR-2021-06-18-reencoded.txt');
  writeFileSync(file, text);
  return file;
}

function stored(db: string): { rule: string; source: string | null; official: boolean | null } {
  const kb = KnowledgeBase.open(db);
  try {
    const s = kb.editionSummaries().find((e) => e.effectiveDate === '2021-06-18')!;
    return { rule: kb.ruleOrThrow(kb.resolveEdition('2021-06-18').edition, '702.19b').text, source: s.source, official: s.officialCopy };
  } finally {
    kb.close();
  }
}

test('a non-official copy never replaces the official one, in one run or the next; the report says why', async () => {
  const dir = tempDir('crkb-official-');
  const copy = thirdPartyCopy(dir);
  const together = join(dir, 'a.db');
  const r = await runIngest({ inputs: expandInputs([copy, DOCX]), dbFile: together, manifest });
  const e = r.editions.find((x) => x.effectiveDate === '2021-06-18')!;
  assert.equal(e.primary, DOCX);
  assert.match(e.why, /^official: its sha256 is the manifest's for rulesraker-documents\/docx\/2021-06-09\.docx .*preferred to 1 non-official copy/);
  assert.equal(e.files.find((f) => f.path === copy)!.provenance.official, false);
  const official = stored(together);
  assert.match(official.rule, /’|“/, 'the stored text is the official typography');
  assert.equal(official.source, 'https://media.wizards.com/2021/downloads/MagicCompRules%2020210609.docx');
  assert.equal(official.official, true);

  // the copy arriving later, against the official text stored before
  const later = join(dir, 'b.db');
  await runIngest({ inputs: expandInputs([DOCX]), dbFile: later, manifest });
  const r2 = await runIngest({ inputs: expandInputs([copy]), dbFile: later, manifest });
  assert.match(r2.editions[0]!.why, /official copy stored before is kept/);
  assert.deepEqual(stored(later), official);

  // alone, the copy fills the edition, and says it is not official (by its name, never a local path)
  const alone = join(dir, 'c.db');
  const r3 = await runIngest({ inputs: expandInputs([copy]), dbFile: alone, manifest });
  assert.match(r3.editions[0]!.why, /^not official: .*no official copy of this edition was given/);
  assert.deepEqual((({ source, official: o }) => ({ source, o }))(stored(alone)), { source: 'CR-2021-06-18-reencoded.txt', o: false });
});
