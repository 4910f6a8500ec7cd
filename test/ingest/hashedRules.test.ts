import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { alignEditions, type AlignRule } from '../../src/engine/align.js';
import { parseTask } from '../../ingest/store/parseTask.js';
import { hashedRules } from '../../ingest/store/textHashes.js';
import { CORPUS } from '../engine/corpus.js';

test('two editions align on the hashes the parse computed (hashedRules) as on their texts', async () => {
  const parse = (date: string): ReturnType<typeof parseTask> =>
    parseTask({ path: join(CORPUS, `rulesraker/${date}.txt`), bytes: null, size: 0, contentType: null });
  const a = await parse('2021-06-09');
  const b = await parse('2021-07-12');
  assert.ok(a.ok && b.ok);
  const byText = alignEditions(a.doc.rules, b.doc.rules);
  assert.deepEqual(alignEditions(hashedRules(a.doc.rules, a.hashes), hashedRules(b.doc.rules, b.hashes)), byText);
  assert.ok(byText.method.includes('exact') && byText.method.some((m) => m !== 'exact' && m !== 'none'), 'a pair with changes');
});

test('the exact passes compare the hashes when both editions have them', () => {
  const rule = (number: string, h: number): AlignRule => ({ number, text: 'Same text.', parent: null, kind: 'rule', examples: [], h, normH: h });
  assert.deepEqual(alignEditions([rule('100.1', 1)], [rule('100.2', 1)]).method, ['exact']);
  // the same text under other hashes (and another number) pairs only once rule numbers are masked, a later pass
  assert.deepEqual(alignEditions([rule('100.1', 1)], [rule('100.2', 2)]).method, ['references']);
});
