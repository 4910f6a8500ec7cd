import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractReferences } from '../../src/core/references.js';
import { inScope } from '../../src/core/ruleNumber.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();

test('the Magic 2010 diff lists each section once, in document order', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const d = kb.diff(kb.resolveEdition('2009-05-01').edition, kb.resolveEdition('2009-07-11').edition, { segments: false });
    const runs = d.changes.map((c) => c.section).filter((s, i, all) => s !== all[i - 1]);
    assert.equal(runs.length, new Set(runs).size, `sections repeat: ${runs.slice(0, 12).join(' ')}`);
    const sorted = [...runs].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    assert.deepEqual(runs, sorted);
    assert.deepEqual(
      d.sections.map((s) => s.section),
      runs,
    );
  } finally {
    kb.close();
  }
});

test('a section-scoped diff is scoped in every part: changes, counts, renumbering, examples, glossary', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const [from, to] = [kb.resolveEdition('2009-05-01').edition, kb.resolveEdition('2009-07-11').edition];
    const all = kb.diff(from, to);
    const d = kb.diff(from, to, { section: '702' });
    assert.ok(d.changes.length > 0 && d.changes.length < all.changes.length);
    assert.ok(d.counts.total === d.changes.length && d.counts.total < all.counts.total);
    assert.ok(d.renumbering.length > 0 && d.renumbering.every((r) => inScope(r.from, '702') || inScope(r.to, '702')));
    assert.ok(d.examples.every((x) => inScope(x.number, '702')));
    assert.ok(d.glossary.length > 0 && d.glossary.length < all.glossary.length, `${d.glossary.length} of ${all.glossary.length}`);
    for (const g of d.glossary) {
      const cited = [g.before, g.after].flatMap((t) => (t ? extractReferences(t).map((r) => r.target) : []));
      assert.ok(
        cited.some((t) => inScope(t, '702') || inScope('702', t)),
        g.term,
      );
    }
  } finally {
    kb.close();
  }
});
