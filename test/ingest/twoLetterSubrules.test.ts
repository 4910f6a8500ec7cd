import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCrText } from '../../ingest/parse/parseCrText.js';
import { parseMarkdown } from '../../ingest/parse/parseMarkdown.js';
import { ruleIdentity } from '../../ingest/parse/crLines.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { summarizeRenumbering } from '../../src/query/summarizeRenumbering.js';
import { REF_MASK_RE } from '../../src/engine/align/Side.js';
import { textClass } from '../../src/engine/compareRule.js';
import { crFixtureText } from '../support/crFixture.js';
import { tempDir } from '../support/tempDir.js';

async function fixtureKb(): Promise<KnowledgeBase> {
  const dir = tempDir('crkb-letters-');
  for (const e of ['2026-06-19', '2026-08-07'] as const) writeFileSync(join(dir, `${e}.txt`), crFixtureText(e));
  const db = join(dir, 'x.db');
  const r = await runIngest({ inputs: expandInputs([dir]), dbFile: db });
  assert.deepEqual(r.rejected, []);
  return KnowledgeBase.open(db);
}

test('a subrule after 704.5z is 704.5aa, a rule of its own, not a paragraph of 704.5z', () => {
  const doc = parseCrText(crFixtureText('2026-08-07'));
  const numbers = doc.rules.map((r) => r.number).filter((n) => n.startsWith('704.5'));
  assert.deepEqual(numbers.slice(-4), ['704.5y', '704.5z', '704.5aa', '704.5ab']);
  const aa = doc.rules.find((r) => r.number === '704.5aa')!;
  assert.equal(aa.parent, '704.5');
  assert.equal(aa.kind, 'subrule');
  assert.match(aa.text, /^If a player controls a permanent with start your engines!/);
  assert.doesNotMatch(doc.rules.find((r) => r.number === '704.5z')!.text, /704\.5aa|\n/);
  assert.deepEqual(
    doc.warnings.filter((w) => w.code !== 'section-jump'),
    [],
  );
});

test('two-letter subrules: lookup, ranges, references and the release notes', async () => {
  const kb = await fixtureKb();
  try {
    const aug = kb.resolveEdition('2026-08-07').edition;
    const jun = kb.resolveEdition('2026-06-19').edition;
    assert.match(kb.ruleOrThrow(aug, '704.5aa').text, /start your engines!/);
    assert.match(kb.ruleOrThrow(aug, '704.5ab').text, /speed counter/);
    const range = kb.lookup(aug, '704.5x-aa');
    assert.deepEqual(
      range.rules.map((r) => r.number),
      ['704.5x', '704.5y', '704.5z', '704.5aa'],
    );
    // "rule 704.5aa" and the range "704.5x–aa" link to 704.5aa
    const citing = kb.citing(aug.id, ['704.5aa']).get('704.5aa') ?? [];
    assert.deepEqual(citing.map((r) => r.number).sort(), ['702.179a', '704.1']);

    const d = kb.diff(jun, aug);
    const byAfter = new Map(d.changes.map((c) => [c.after?.number, c]));
    const z = byAfter.get('704.5z')!;
    assert.equal(z.before?.number, '704.5y');
    assert.equal(z.textChange, 'none', '704.5y → 704.5z is only renumbered');
    const aa = byAfter.get('704.5aa')!;
    assert.equal(aa.before?.number, '704.5z');
    assert.equal(aa.textChange, 'none');
    assert.equal(aa.mergedInto, undefined);
    assert.ok(!d.changes.some((c) => c.mergedInto !== undefined), 'nothing is merged');
    assert.deepEqual(summarizeRenumbering(d.renumbering), ['704.5w–z → 704.5x–aa (4 subrules relettered)']);
    assert.equal(byAfter.get('704.5ab')?.before, null);
    assert.equal(textClass(byAfter.get('722.3a')!), 'correction', 'a comma become a full stop');
  } finally {
    kb.close();
  }
});

test('the aligner masks two-letter reference numbers like one-letter ones', () => {
  assert.deepEqual('See rules 704.5z and 704.5aa.'.match(REF_MASK_RE), ['704.5z', '704.5aa']);
});

test('web fragments and Markdown read two-letter subrules too', () => {
  const md = parseMarkdown(
    [
      '# 704. State-Based Actions',
      '',
      '**704.5.** The state-based actions are as follows:',
      '',
      '**704.5z** A rule.',
      '',
      '**704.5aa** If a player controls a permanent with start your engines!',
    ].join('\n'),
  );
  assert.deepEqual(
    md.rules.map((r) => [r.number, r.parent]),
    [
      ['704', null],
      ['704.5', '704'],
      ['704.5z', '704.5'],
      ['704.5aa', '704.5'],
    ],
  );
  assert.deepEqual(ruleIdentity('704.5ab'), { number: '704.5ab', parent: '704.5', kind: 'subrule' });
});
