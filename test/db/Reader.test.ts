import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reader, ftsQuery } from '../../src/db/Reader.js';
import { fixtureDb } from '../server/fixtures.js';

const db = fixtureDb();
const reader = new Reader(db);

function edition(arg: string) {
  const r = reader.resolveEdition(arg);
  assert.ok(r, `edition ${arg}`);
  return r.edition;
}

test('resolves editions by effective date, date in force and latest', () => {
  assert.deepEqual(reader.resolveEdition('2021-06-18')?.exact, true);
  assert.equal(edition('2021-07-01').effectiveDate, '2021-06-18');
  assert.equal(reader.resolveEdition('2021-07-01')?.exact, false);
  assert.equal(edition('latest').effectiveDate, '2021-07-23');
  assert.equal(edition('2030-01-01').effectiveDate, '2021-07-23');
  assert.equal(edition('2009-01-01').effectiveDate, '2008-10-01');
  assert.equal(reader.resolveEdition('1999-01-01'), null);
  assert.deepEqual(
    reader.editions().map((e) => e.effectiveDate),
    ['2008-10-01', '2021-06-18', '2021-07-23'],
  );
});

test('rule, examples, parent chain, children and descendants', () => {
  const e = edition('2021-06-18');
  const r = reader.rule(e.id, '702.19b');
  assert.ok(r);
  assert.match(r.text, /^The controller of an attacking creature with trample/);
  assert.equal(reader.examples(r).length, 2);
  assert.deepEqual(reader.ancestors(r).map((a) => a.number), ['702.19', '702']);
  const header = reader.rule(e.id, '702.19')!;
  assert.deepEqual(reader.descendants(header).map((d) => d.number), ['702.19a', '702.19b', '702.19c']);
  assert.deepEqual(reader.childrenOf(e.id, ['704.5']).get('704.5')!.map((c) => c.number), ['704.5k', '704.5m']);
  assert.deepEqual(reader.rulesByNumbers(e.id, ['702.19a', 'nope']).map((x) => x?.number ?? null), ['702.19a', null]);
});

test('references resolve against their own edition; incoming references', () => {
  for (const [date, target] of [['2021-06-18', '706.10'], ['2021-07-23', '707.10']] as const) {
    const e = edition(date);
    const r = reader.rule(e.id, '700.2g')!;
    const refs = reader.refsOfTexts([r.textId]).get(r.textId)!;
    assert.deepEqual(refs.map((x) => x.target), [target]);
    assert.match(reader.rule(e.id, target)!.text, /^To copy a spell/);
    assert.deepEqual(reader.citing(e.id, [target]).get(target)!.map((c) => c.number), ['700.2g']);
  }
  const e = edition('2021-07-23');
  // cited from an example of 702.19b
  assert.deepEqual(reader.citing(e.id, ['999.9']).get('999.9')!.map((c) => c.number), ['702.19b']);
  assert.deepEqual(reader.glossaryCiting(e.id, ['700.4']).get('700.4')!.map((g) => g.term), ['Dies']);
});

test('rules page: keyset pagination and section filter', () => {
  const e = edition('2021-07-23');
  const first = reader.rulesPage(e.id, { limit: 3 });
  assert.deepEqual(first.map((r) => r.number), ['100', '100.1', '100.1a']);
  const next = reader.rulesPage(e.id, { limit: 2, after: first[2]!.ord });
  assert.deepEqual(next.map((r) => r.number), ['510', '510.1']);
  assert.deepEqual(reader.rulesPage(e.id, { section: '702.19', limit: 10 }).map((r) => r.number), [
    '702.19',
    '702.19a', '702.19b', '702.19c',
  ]);
  const sec = reader.rulesPage(e.id, { section: '704', limit: 10 }).map((r) => r.number);
  assert.deepEqual(sec, ['704', '704.5', '704.5k', '704.5m']);
  const part = reader.rulesPage(e.id, { section: '7', limit: 500 }).map((r) => r.number);
  assert.ok(part.includes('700') && part.includes('707.10a') && !part.includes('601'));
});

test('glossary and keywords, modern and pre-2009 numbering', () => {
  const e = edition('latest');
  assert.equal(reader.glossaryTerm(e.id, 'dies')?.term, 'Dies');
  assert.equal(reader.glossaryTerm(e.id, 'nothing'), null);
  assert.equal(reader.glossary(e.id).length, 4);
  const kws = reader.keywords(e.id);
  assert.deepEqual(kws.map((k) => `${k.kind}:${k.number}:${k.name}`), ['action:701.2:Activate', 'ability:702.19:Trample']);
  const old = reader.keywords(edition('2008-10-01').id);
  assert.deepEqual(old.map((k) => `${k.kind}:${k.number}:${k.name}`), ['action:501.1:Activate', 'ability:502.9:Trample']);
});

test('search ranks, highlights and stays inside the edition', () => {
  const e = edition('2021-06-18');
  const hits = reader.search(e.id, 'trample', { limit: 50, marks: { open: '[', close: ']' } });
  assert.ok(hits.length >= 4);
  assert.ok(hits.every((h) => h.rule === null || h.rule.editionId === e.id));
  assert.ok(hits.some((h) => h.kind === 'example' && h.rule?.number === '702.19b' && h.exampleIndex === 0));
  const gl = reader.search(e.id, 'excess damage', { limit: 5 });
  assert.ok(gl.some((h) => h.kind === 'glossary' && h.glossary?.term === 'Trample' && h.rule === null));
  assert.ok(hits.every((h) => /\[trample\]/i.test(h.highlighted)));
  for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score <= hits[i]!.score);
  const old = reader.search(edition('2008-10-01').id, 'trample', { limit: 50 });
  assert.ok(old.every((h) => h.rule === null || h.rule.number.startsWith('502')));
});

test('search input is never FTS syntax', () => {
  assert.equal(ftsQuery('"'), null);
  assert.equal(ftsQuery('*'), null);
  assert.equal(ftsQuery('NEAR('), '"NEAR"');
  assert.equal(ftsQuery('-trample OR x'), '"trample" "OR" "x"');
  const e = edition('latest');
  for (const nasty of ['"', '*', 'NEAR(', '-trample', '((', 'a AND', 'col:x', '^x', 'trample*']) {
    assert.doesNotThrow(() => reader.search(e.id, nasty, { limit: 5 }), nasty);
  }
});

test('search falls back to any word when no text has them all', () => {
  const e = edition('latest');
  const all = reader.search(e.id, 'trample deathtouch', { limit: 50 });
  assert.ok(all.length > 0 && all.every((h) => /deathtouch/i.test(h.highlighted) && /trample/i.test(h.highlighted)));
  const any = reader.search(e.id, 'trample zzzunknownword', { limit: 50 });
  assert.ok(any.length > 0 && any.every((h) => /trample/i.test(h.highlighted)));
});

test('memo mode (editions in memory) answers like SQL, also after evicting editions', () => {
  const plain = new Reader(db, { memo: false });
  const memo = new Reader(db, { memo: true, editions: 1 });
  for (const date of ['2021-06-18', '2008-10-01', 'latest', '2021-06-18']) {
    const e = plain.resolveEdition(date)!.edition;
    assert.deepEqual(memo.resolveEdition(date), plain.resolveEdition(date));
    const numbers = plain.numbers(e.id);
    assert.ok(numbers.length > 0);
    assert.deepEqual(memo.numbers(e.id), numbers);
    assert.equal(memo.ruleCount(e.id), plain.ruleCount(e.id));
    for (const n of numbers) {
      const r = plain.rule(e.id, n)!;
      assert.deepEqual(memo.rule(e.id, n), r);
      assert.deepEqual(memo.descendants(r), plain.descendants(r));
      assert.deepEqual(memo.examples(r), plain.examples(r));
    }
    assert.deepEqual(memo.rulesByNumbers(e.id, [...numbers, 'nope']), plain.rulesByNumbers(e.id, [...numbers, 'nope']));
    assert.deepEqual(memo.childrenOf(e.id, numbers), plain.childrenOf(e.id, numbers));
    assert.deepEqual(memo.glossary(e.id), plain.glossary(e.id));
    for (const g of plain.glossary(e.id)) assert.deepEqual(memo.glossaryTerm(e.id, g.term.toUpperCase()), plain.glossaryTerm(e.id, g.term.toUpperCase()));
    for (const q of ['trample', 'damage', 'excess damage', 'trample zzzunknownword', '((']) {
      // scores differ (bm25 statistics of one edition, not of every text), the hits do not
      const key = (h: { kind: string; textId: number; exampleIndex: number | null; rule: { number: string } | null; glossary: { term: string } | null; highlighted: string }) =>
        `${h.kind}:${h.textId}:${h.exampleIndex}:${h.rule?.number}:${h.glossary?.term}:${h.highlighted}`;
      const a = memo.search(e.id, q, { limit: 500 });
      const b = plain.search(e.id, q, { limit: 500 });
      assert.deepEqual(a.map(key).sort(), b.map(key).sort(), q);
      for (let i = 1; i < a.length; i++) assert.ok(a[i - 1]!.score <= a[i]!.score);
      const paged = [...memo.search(e.id, q, { limit: 2 }), ...memo.search(e.id, q, { limit: 500, offset: 2 })];
      assert.deepEqual(paged.map(key), a.map(key), `${q} paged`);
    }
  }
});
