import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { findEffectiveDate } from '../../ingest/parse/effectiveDate.js';
import { readManifest, type Manifest } from '../../ingest/store/sources.js';
import { projectRoot } from '../../src/core/projectFiles.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { corpusDb } from '../cli/corpusDb.js';

// The manifest (data/sources.json) against the documents themselves, as the corpus database stores them: each stored
// edition's published file (/v1/files) states its date ("These rules are effective as of …"), and the manifest edition
// that lists that file (by sha256) must have that date. (No document of the corpus names its set before its contents:
// a set code has no statement of the document's own to be checked against; see README, Ingest.)
const db = corpusDb();

/** Where the manifest and the stored documents disagree: "file: states D, manifest M". */
function disagreements(kb: KnowledgeBase, manifest: Manifest): { checked: number; wrong: string[] } {
  const bySha = new Map(manifest.editions.flatMap((e) => e.files.map((f) => [f.sha256, { edition: e, path: f.path }] as const)));
  const wrong: string[] = [];
  let checked = 0;
  for (const e of kb.editions().filter((x) => x.family === 'cr' && x.official)) {
    const file = kb.publishedFile(e.effectiveDate, true);
    const stated = findEffectiveDate(file.body.toString('utf8'));
    const listed = bySha.get(file.sha256);
    if (stated === null || !listed) continue;
    checked++;
    if (listed.edition.effectiveDate !== stated) wrong.push(`${listed.path}: states ${stated}, manifest ${listed.edition.effectiveDate}`);
  }
  return { checked, wrong };
}

test("each manifest edition's effective date is the one its stored document states", () => {
  const kb = KnowledgeBase.open(db());
  try {
    const manifest = readManifest(join(projectRoot(), 'data', 'sources.json'));
    const { checked, wrong } = disagreements(kb, manifest);
    assert.equal(checked, 4, 'every edition of the corpus database is listed in the manifest by its sha256');
    assert.deepEqual(wrong, []);
    // the check finds a date the manifest gets wrong (as it had MKM's and BLB's): 2021-07-23 listed as 2021-07-12
    const moved: Manifest = {
      ...manifest,
      editions: manifest.editions.map((e) => (e.effectiveDate === '2021-07-23' ? { ...e, effectiveDate: '2021-07-12' } : e)),
    };
    const found = disagreements(kb, moved).wrong;
    assert.equal(found.length, 1);
    assert.match(found[0]!, /2021-07-12\.txt: states 2021-07-23, manifest 2021-07-12$/);
  } finally {
    kb.close();
  }
});
