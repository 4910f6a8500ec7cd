import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subruleWords } from '../../src/query/chatText.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { historyPage } from '../../src/web/pages/historyPage.js';
import { corpusDb } from '../cli/corpusDb.js';

// Issue 23 item 5: the history of a rule with subrules (702.19 "Trample" is only a title) covers its subtree.
const dbFile = corpusDb();

test('the history of a title rule names the subrules each step added, removed, renumbered and reworded, by lineage', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const ed = kb.resolveEdition('2021-07-23').edition;
    const h = kb.history(ed, '702.19')!;
    // the Magic 2010 rewrite: 502.9 became 702.17; its subrule d went, e and f moved up a letter
    const m10 = h.steps.find((s) => s.date === '2009-07-11')!;
    assert.equal(m10.number, '702.17');
    assert.equal(m10.change, 'changed');
    const sub = m10.subrules!;
    assert.ok(sub, 'the step lists its subrule changes');
    assert.deepEqual(
      sub.removed.map((r) => r.number),
      ['502.9d'],
    );
    assert.deepEqual(sub.renumbered, [
      { from: '502.9e', to: '702.17d' },
      { from: '502.9f', to: '702.17e' },
    ]);
    assert.ok(
      sub.changed.some((c) => c.number === '702.17b' && c.textChange === 'substantive' && c.examplesChanged),
      JSON.stringify(sub.changed),
    );
    // the parent's own renumbering (502.9 → 702.17) does not count as renumbering each subrule
    assert.ok(!sub.renumbered.some((r) => r.from === '502.9a'));
    assert.match(subruleWords(sub), /502\.9d removed; 502\.9e → 702\.17d, 502\.9f → 702\.17e renumbered; .*702\.17b reworded and examples changed/);
    // a step where nothing changed below the rule either stays unchanged
    assert.ok(h.steps.some((s) => s.change === 'unchanged' && s.subrules === undefined));
  } finally {
    kb.close();
  }
});

test('a rule without subrules keeps its history as it was: no step names subrules', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const ed = kb.resolveEdition('2021-07-23').edition;
    const h = kb.history(ed, '702.19b')!;
    assert.ok(h.steps.length > 1);
    assert.ok(h.steps.every((s) => s.subrules === undefined));
  } finally {
    kb.close();
  }
});

test('the web history of a title rule links each changed subrule in its edition', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const ed = kb.resolveEdition('2021-07-23').edition;
    const body = historyPage(kb, ed, '702.19', kb.history(ed, '702.19')!).main.value;
    assert.match(body, /<details class="subrule-changes" open><summary>Subrules: 502\.9d removed;/);
    assert.match(body, /<li class="removed"><a href="\/cr\/2009-05-01\/502\.9#502\.9d">502\.9d<\/a> removed/);
    assert.match(
      body,
      /<li class="renumbered"><a href="\/cr\/2009-05-01\/502\.9#502\.9e">502\.9e<\/a> renumbered <a href="\/cr\/2009-07-11\/702\.17#702\.17d">702\.17d<\/a>/,
    );
    assert.match(body, /Renumbered from 502\.9, subrules changed/);
  } finally {
    kb.close();
  }
});

test('subrule changes in words: a number removed and added again is a replacement; long lists end with "and N more"', () => {
  const words = subruleWords({
    added: [{ number: '502.9d' }, { number: '502.9h', from: '502.8a' }],
    removed: [{ number: '502.9d' }, { number: '502.9c', to: '702.20a' }],
    renumbered: [],
    changed: 'abcdefgh'.split('').map((l) => ({ number: `502.9${l}`, textChange: 'typography' as const, examplesChanged: l === 'a' })),
  });
  assert.match(words, /^502\.9h \(from 502\.8a\) added; 502\.9c \(now 702\.20a\) removed; 502\.9d replaced by a new rule; /);
  assert.match(words, /502\.9a typography and examples changed, 502\.9b typography, .* and 2 more changed$/);
});
