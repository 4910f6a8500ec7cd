import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { QueryError } from '../../src/query/QueryError.js';
import { fixtureDb } from '../server/fixtures.js';
import { tempDir } from '../support/tempDir.js';

test('a database written before the Rulings notes and pair reasons were stored is still read and served', () => {
  const file = join(tempDir('crkb-older-'), 'old.db');
  const db = fixtureDb(file);
  db.exec('DROP TABLE edition_notes; DROP TABLE lineage_pairs;');
  db.close();
  const kb = KnowledgeBase.open(file);
  try {
    const e = kb.resolveEdition('latest').edition;
    const r = kb.ruleOrThrow(e, '100.1');
    assert.deepEqual(kb.notes(r), []);
    assert.throws(
      () => kb.explain(e, e),
      (err: unknown) => err instanceof QueryError && err.code === 'BAD_INPUT' && /ingest it again/.test(err.message),
    );
  } finally {
    kb.close();
  }
});
