import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { neighbourReleases, releaseList } from '../../src/query/releaseList.js';
import { fixtureDbWithLineage } from '../server/fixtures.js';

const kb = new KnowledgeBase(fixtureDbWithLineage());
after(() => kb.close());

test('releaseList: every release, counted as the diff counts added, removed and renumbered rules', () => {
  const releases = releaseList(kb);
  assert.deepEqual(
    releases.map((r) => `${r.from.effectiveDate}→${r.to.effectiveDate}`),
    ['2008-10-01→2021-06-18', '2021-06-18→2021-07-23'],
  );
  for (const r of releases) {
    const d = kb.diff(r.from, r.to, { segments: false });
    assert.deepEqual([r.added, r.removed, r.renumbered], [d.counts.added, d.counts.removed, d.counts.renumbered], r.to.effectiveDate);
    assert.ok(r.added + r.removed + r.changed >= d.counts.total);
  }
  const [a, b] = [kb.resolveEdition('2021-06-18').edition, kb.resolveEdition('2021-07-23').edition];
  const near = neighbourReleases(kb, a, b);
  assert.equal(near.previous?.[1].effectiveDate, '2021-06-18');
  assert.equal(near.next, null);
});
