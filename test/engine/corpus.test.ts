import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignEditions } from '../../src/engine/align.js';
import { diffFixtures, type FixtureEdition } from './memorySource.js';
import type { ParsedDocument } from '../../src/core/types.js';
import { loadEdition } from './corpus.js';

function withLineages(a: ParsedDocument, b: ParsedDocument): [FixtureEdition, FixtureEdition] {
  const al = alignEditions(a.rules, b.rules);
  // a's rules are lineages 1..n; b's continue them, or are new
  const before = a.rules.map((_, j) => j + 1);
  const after = b.rules.map((_, i) => (al.afterToBefore[i] === -1 ? a.rules.length + 1 + i : al.afterToBefore[i]! + 1));
  const mk = (d: ParsedDocument, lin: number[]): FixtureEdition => ({
    date: d.effectiveDate ?? '',
    rules: d.rules.map((r, i) => ({ ...r, lineage: lin[i]! })),
    glossary: d.glossary,
  });
  return [mk(a, before), mk(b, after)];
}

test('2021-06-18 → 2021-07-23: 309 and 706 inserted, old 706.x became 707.x', () => {
  const a = loadEdition('rulesraker/2021-06-09.txt');
  const b = loadEdition('rulesraker/2021-07-12.txt');
  assert.equal(a.effectiveDate, '2021-06-18');
  assert.equal(b.effectiveDate, '2021-07-23');
  const al = alignEditions(a.rules, b.rules);
  const num = (i: number): string | null => (al.afterToBefore[i] === -1 ? null : a.rules[al.afterToBefore[i]!]!.number);
  let shifted = 0;
  b.rules.forEach((r, i) => {
    if (/^707(\.|$)/.test(r.number)) {
      assert.equal(num(i), r.number.replace(/^707/, '706'), r.number);
      shifted++;
    }
    if (/^(309|706)(\.|$)/.test(r.number)) assert.equal(num(i), null, `${r.number} is new`);
  });
  assert.ok(shifted > 20, `only ${shifted} rules in 707`);

  const [from, to] = withLineages(a, b);
  const d = diffFixtures(from, to);
  const g = d.changes.find((c) => c.after?.number === '700.2g');
  assert.equal(g?.before?.number, '700.2g');
  assert.equal(g?.textChange, 'references');
  assert.match(g?.after?.text ?? '', /707\.10/);
  const copy = d.changes.find((c) => c.after?.number === '707.10');
  assert.deepEqual([copy?.before?.number, copy?.renumbered, copy?.textChange], ['706.10', true, 'none']);
  assert.ok(d.renumbering.some((r) => r.from === '706.10' && r.to === '707.10'));
  assert.equal(d.changes.find((c) => c.after?.number === '706.1')?.before, null);
});

test('2009-05-01 → 2009-07-11 (Magic 2010 rewrite): known moves are found', (t) => {
  const a = loadEdition('mtg-cr/CR-2009-05-01.txt');
  const b = loadEdition('rulesraker/2009-07-11.txt');
  assert.equal(a.effectiveDate, '2009-05-01');
  assert.equal(b.effectiveDate, '2009-07-11');
  const start = performance.now();
  const al = alignEditions(a.rules, b.rules);
  const ms = performance.now() - start;
  const title = (rules: ParsedDocument['rules'], n: string | null): string | undefined => rules.find((r) => r.number === n)?.text;
  // Each check: old rules under an old heading must land under the new heading of the same title.
  const checks: Array<{ name: string; old: RegExp; oldHead: (n: string) => string; newHead: (n: string) => string | null }> = [
    {
      name: 'keyword abilities 502.x → 702.x',
      old: /^502\.\d+[a-z]$/,
      oldHead: (n) => n.replace(/[a-z]$/, ''),
      newHead: (n) => (/^702\.\d+[a-z]$/.test(n) ? n.replace(/[a-z]$/, '') : null),
    },
    {
      name: 'card types 212.x → 30x',
      old: /^212\.[2-9][a-z]$/,
      oldHead: (n) => n.replace(/[a-z]$/, ''),
      newHead: (n) => (/^30\d\.\d+[a-z]?$/.test(n) ? n.slice(0, 3) : null),
    },
    { name: 'state-based effects 420.5x → 704.5x', old: /^420\.5[a-z]$/, oldHead: () => 'SBE', newHead: (n) => (/^704\.5[a-z]$/.test(n) ? 'SBE' : null) },
  ];
  for (const c of checks) {
    let total = 0;
    let paired = 0;
    let right = 0;
    a.rules.forEach((r, j) => {
      if (!c.old.test(r.number)) return;
      total++;
      const i = al.beforeToAfter[j]!;
      if (i === -1) return;
      paired++;
      const nh = c.newHead(b.rules[i]!.number);
      const oh = c.oldHead(r.number);
      const same = nh !== null && (nh === oh || title(b.rules, nh) === title(a.rules, oh));
      if (same) right++;
    });
    const precision = right / paired;
    const recall = right / total;
    t.diagnostic(`${c.name}: ${total} old rules, ${paired} paired, precision ${(precision * 100).toFixed(1)}%, recall ${(recall * 100).toFixed(1)}%`);
    assert.ok(total > 10);
    assert.ok(precision >= 0.9, `${c.name} precision ${precision}`);
    assert.ok(recall >= 0.6, `${c.name} recall ${recall}`);
  }
  t.diagnostic(`alignment ${ms.toFixed(0)} ms for ${a.rules.length} → ${b.rules.length} rules`);
});
