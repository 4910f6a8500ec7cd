import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { CORPUS } from '../cli/corpusDb.js';
import { tempDir } from '../support/tempDir.js';

/** A database of the given corpus (or seed) files, read through the query layer. */
async function kbOf(files: string[]): Promise<KnowledgeBase> {
  const db = join(tempDir('crkb-fardiff-'), 'x.db');
  await runIngest({ inputs: expandInputs(files.map((f) => join(CORPUS, f))), dbFile: db });
  return KnowledgeBase.open(db);
}

test('a diff against an unofficial fragment edition pairs its rules by text', async () => {
  const kb = await kbOf(['rulesraker/2021-07-12.txt', '../seeds/000_fd7f68269be61ced.txt']);
  try {
    const official = kb.editions().find((e) => e.official && e.family === 'cr')!;
    const fragment = kb.editions().find((e) => !e.official)!;
    assert.ok(official && fragment, 'one official edition and the fragment');
    for (const [from, to] of [
      [official, fragment],
      [fragment, official],
    ] as const) {
      const d = kb.diff(from, to, { segments: false, rulesOnly: true });
      const touched = d.changes.filter((c) => c.after?.number === '700.1' || c.before?.number === '700.1' || c.after?.number === '700.2a');
      assert.deepEqual(touched, [], `${from.effectiveDate} -> ${to.effectiveDate}`);
      const outlaw = d.changes.find((c) => (c.after ?? c.before)?.number === '700.12');
      assert.ok(outlaw && (outlaw.before === null || outlaw.after === null));
    }
  } finally {
    kb.close();
  }
});

test('a far diff follows merge links: 407.3 is "merged into 402.9", not only removed', async () => {
  const kb = await kbOf(['mtg-cr/CR-2008-05-01.txt', 'mtg-cr/CR-2008-07-15.txt', 'mtg-cr/CR-2008-10-01.txt']);
  try {
    const chain = kb.editions().filter((e) => e.family === 'cr' && e.official);
    assert.deepEqual(
      chain.map((e) => e.effectiveDate),
      ['2008-05-01', '2008-07-15', '2008-10-01'],
    );
    for (const to of [chain[1]!, chain[2]!]) {
      const d = kb.diff(chain[0]!, to, { segments: false, rulesOnly: true });
      const gone = d.changes.find((c) => c.before?.number === '407.3');
      assert.equal(gone?.after, null);
      assert.equal(gone?.mergedInto, '402.9', `2008-05-01 -> ${to.effectiveDate}`);
    }
    const rev = kb.diff(chain[2]!, chain[0]!, { segments: false, rulesOnly: true });
    assert.ok(rev.changes.every((c) => c.mergedInto === undefined));
  } finally {
    kb.close();
  }
});
