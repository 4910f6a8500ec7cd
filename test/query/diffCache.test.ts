import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();

test('the diff cache keeps at most 8 MB of diffs by default, and fills up to about that', () => {
  const MB = 1024 * 1024;
  const kb = KnowledgeBase.open(dbFile());
  // the same diffs in a cache that keeps them all: what they weigh together
  const all = KnowledgeBase.open(dbFile(), { diffCacheBytes: 1024 * MB });
  try {
    const editions = kb.editions().filter((e) => e.family === 'cr');
    assert.ok(editions.length >= 4);
    // every ordered pair, without word segments (quick to compute): about 1.2-1.7 MB each, 15 MB together
    let largest = 0;
    for (const from of editions) {
      for (const to of editions) {
        if (from.id === to.id) continue;
        const before = all.diffCacheBytes;
        all.diff(from, to, { segments: false });
        largest = Math.max(largest, all.diffCacheBytes - before);
        kb.diff(from, to, { segments: false });
        assert.ok(kb.diffCacheBytes <= 8 * MB, `${kb.diffCacheBytes} bytes`);
      }
    }
    assert.ok(all.diffCacheBytes > 12 * MB, `the diffs weigh ${all.diffCacheBytes} bytes together: not enough to fill the cache`);
    // full: the next diff would not have fitted
    assert.ok(kb.diffCacheBytes > 8 * MB - largest, `${kb.diffCacheBytes} bytes kept, the largest diff ${largest}`);
  } finally {
    kb.close();
    all.close();
  }
});

test('a diff made again after the cache let it go has the same word segments, from its packed word diffs', () => {
  // a cache too small to keep any diff: the second diff of a pair is made from its packed word diffs
  const kb = KnowledgeBase.open(dbFile(), { diffCacheBytes: 1 });
  try {
    const cr = kb.editions().filter((e) => e.family === 'cr');
    const [from, to] = [cr.at(-2)!, cr.at(-1)!];
    const first = kb.diff(from, to);
    const again = kb.diff(from, to);
    assert.notEqual(again, first, 'the diff was kept: the packed word diffs were not read');
    const withSegments = first.changes.filter((c) => c.segments && c.segments.length > 1);
    assert.ok(withSegments.length > 10, `${withSegments.length} changes with word segments`);
    assert.deepEqual(again, first);
    // the segments rebuild both texts
    for (const c of again.changes.filter((x) => x.segments)) {
      assert.equal(
        c
          .segments!.filter((s) => s.op !== 'insert')
          .map((s) => s.text)
          .join(''),
        c.before!.text,
      );
      assert.equal(
        c
          .segments!.filter((s) => s.op !== 'delete')
          .map((s) => s.text)
          .join(''),
        c.after!.text,
      );
    }
  } finally {
    kb.close();
  }
});

test('segmentsIn: word segments for the changes of the ranges only, the same as the whole diff gives them; ranges over every change give the whole diff', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const cr = kb.editions().filter((e) => e.family === 'cr');
    const [from, to] = [cr[0]!, cr.at(-1)!];
    const whole = kb.diff(from, to);
    const [lo, hi] = [20, 60];
    assert.ok(whole.changes.length > hi && whole.glossary.length > 10, `${whole.changes.length} changes, ${whole.glossary.length} glossary changes`);
    const listed = kb.diff(from, to, { segmentsIn: { changes: [lo, hi], glossary: [3, 7] } });
    assert.equal(listed.changes.length, whole.changes.length);
    listed.changes.forEach((c, k) => {
      assert.deepEqual(c.segments, k >= lo && k < hi ? whole.changes[k]!.segments : undefined, `change ${k}`);
      assert.deepEqual({ ...c, segments: undefined }, { ...whole.changes[k], segments: undefined }, `change ${k}`);
    });
    assert.ok(
      listed.changes.slice(lo, hi).some((c) => c.segments),
      'no listed change has word segments',
    );
    listed.glossary.forEach((g, k) => assert.deepEqual(g.segments, k >= 3 && k < 7 ? whole.glossary[k]!.segments : undefined, `glossary change ${k}`));
    assert.ok(listed.glossary.slice(3, 7).some((g) => g.segments));
    // filtered: the places of the filtered list
    const scoped = kb.diff(from, to, { section: '702', segmentsIn: { changes: [0, 3], glossary: [0, 0] } });
    const scopedWhole = kb.diff(from, to, { section: '702' });
    assert.ok(scopedWhole.changes.length > 3);
    assert.deepEqual(
      scoped.changes.map((c) => c.segments),
      scopedWhole.changes.map((c, k) => (k < 3 ? c.segments : undefined)),
    );
    // ranges over every change: the whole diff
    const every = kb.diff(from, to, { section: '702', segmentsIn: { changes: [0, scopedWhole.changes.length], glossary: [0, scopedWhole.glossary.length] } });
    assert.deepEqual(every, scopedWhole);
  } finally {
    kb.close();
  }
});
