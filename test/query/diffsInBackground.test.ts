import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();
/** What the first page of a diff shows: its first 40 rule changes, at most 40 glossary changes. */
const PAGE = { changes: [0, 40], glossary: [0, 40] } as const;

test('diffsInBackground keeps every neighbour diff of a family, with the word segments a page asks for, the same as made on request', async () => {
  const kb = KnowledgeBase.open(dbFile(), { diffCacheBytes: 256 * 1024 * 1024 });
  const fresh = KnowledgeBase.open(dbFile());
  try {
    const cr = kb.editions().filter((e) => e.family === 'cr' && e.official);
    assert.ok(cr.length >= 3, `${cr.length} editions`);
    await kb.diffsInBackground('cr', PAGE);
    const kept = kb.diffCacheBytes;
    assert.ok(kept > 0, 'nothing was diffed');
    for (let k = 1; k < cr.length; k++) {
      const d = kb.diff(cr[k - 1]!, cr[k]!, { segmentsIn: PAGE });
      // kept: asking again adds nothing to the cache
      assert.equal(kb.diffCacheBytes, kept, `${cr[k - 1]!.effectiveDate} → ${cr[k]!.effectiveDate} was not kept`);
      assert.deepEqual(d, fresh.diff(cr[k - 1]!, cr[k]!, { segmentsIn: PAGE }));
    }
  } finally {
    kb.close();
    fresh.close();
  }
});

test('diffsInBackground makes the newest diffs first and keeps them in a cache too small for all, and stops when the database is closed', async () => {
  const all = KnowledgeBase.open(dbFile(), { diffCacheBytes: 256 * 1024 * 1024 });
  await all.diffsInBackground('cr', PAGE);
  const total = all.diffCacheBytes;
  all.close();
  // room for about half of them
  const small = KnowledgeBase.open(dbFile(), { diffCacheBytes: Math.floor(total / 2) });
  try {
    await small.diffsInBackground('cr', PAGE);
    const kept = small.diffCacheBytes;
    assert.ok(kept > 0 && kept <= total / 2, `${kept} of ${total} bytes`);
    const cr = small.editions().filter((e) => e.family === 'cr' && e.official);
    small.diff(cr.at(-2)!, cr.at(-1)!, { segments: false });
    assert.equal(small.diffCacheBytes, kept, 'the newest neighbour diff was not kept');
  } finally {
    small.close();
  }
  const closed = KnowledgeBase.open(dbFile());
  const done = closed.diffsInBackground('cr', PAGE);
  closed.close();
  await done;
  assert.equal(closed.diffCacheBytes, 0);
});
