import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readManifest } from '../../ingest/store/sources.js';
import { projectRoot } from '../../src/core/projectFiles.js';

// What data/sources.json (built from the archives and data/published.json) says of editions the corpus does not hold.
const manifest = readManifest(join(projectRoot(), 'data', 'sources.json'));
const cr = manifest.editions.filter((e) => e.family === 'cr');
const byDate = new Map(cr.map((e) => [e.effectiveDate, e]));

test('set codes are real codes, one edition each; an update with no set of its own has none', () => {
  for (const e of cr) if (e.setCode !== null) assert.match(e.setCode, /^[0-9A-Z]{3}$/, `${e.effectiveDate}: ${e.setCode}`);
  const codes = cr.flatMap((e) => (e.setCode === null ? [] : [e.setCode]));
  assert.deepEqual(
    codes.filter((c, i) => codes.indexOf(c) !== i),
    [],
    'a set code names one edition',
  );
  const code = (d: string) => [byDate.get(d)?.setCode, byDate.get(d)?.setName];
  assert.deepEqual(code('2020-04-17'), ['IKO', 'Ikoria: Lair of Behemoths']);
  assert.deepEqual(code('2020-06-01'), [null, null]);
  assert.deepEqual(code('2021-02-15'), [null, null]);
  assert.deepEqual(code('2003-10-01'), ['MRD', 'Mirrodin']);
  assert.deepEqual(code('2003-12-01'), [null, null]);
  assert.deepEqual(code('2011-06-17'), ['CMD', 'Commander']);
  const expected: Record<string, string> = {
    '2002-10-07': 'ONS',
    '2009-09-04': 'HOP',
    '2010-10-01': 'SOM',
    '2011-07-15': 'M12',
    '2012-06-01': 'PC2',
    '2014-07-18': 'M15',
    '2018-08-10': 'C18',
    '2026-02-27': 'TMT',
    '2026-04-17': 'SOS',
    '2026-06-19': 'MSH',
    '2026-08-07': 'HOB',
    '2026-09-25': 'FRA',
  };
  for (const [d, c] of Object.entries(expected)) assert.equal(byDate.get(d)?.setCode, c, d);
});

test('effective dates as the documents state them, and every official name, irregular ones first', () => {
  // the documents say February 2 and July 30, 2024 (published as …20240206.txt and …20240802.txt)
  assert.equal(cr.find((e) => e.setCode === 'MKM')?.effectiveDate, '2024-02-02');
  assert.equal(cr.find((e) => e.setCode === 'BLB')?.effectiveDate, '2024-07-30');
  assert.equal(byDate.get('2024-02-06'), undefined);
  assert.equal(byDate.get('2024-08-02'), undefined);
  const first: Record<string, string> = {
    '2021-09-24': 'MagicCompRules%20202109224.txt',
    '2022-10-07': 'Comprehensive%20Rules%2020221007.txt',
    '2023-02-03': 'MagicComp%20Rules%2020230203.txt',
    '2023-06-16': 'MagicCompRules20230616.txt',
    '2023-09-01': 'MagicCompRulesWOE%2020230901.txt',
    '2024-04-12': 'MagicCompRules%2004102024.txt',
    '2024-09-20': 'MagicCompRules20240917.txt',
    '2026-08-07': 'MagicCompRules%2020260819.txt',
  };
  for (const [d, name] of Object.entries(first)) assert.equal(byDate.get(d)?.urls[0]?.split('/').pop(), name, d);
  assert.equal(byDate.get('2024-04-12')?.setCode, 'OTJ');
  assert.equal(byDate.get('2024-09-20')?.setCode, 'DSK');
});
