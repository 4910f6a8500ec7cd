import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { historyPage } from '../../src/web/pages/historyPage.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();

test('a history step whose examples changed shows the examples removed and added', () => {
  const kb = KnowledgeBase.open(dbFile());
  try {
    const ed = kb.resolveEdition('2009-07-11').edition;
    // the first rule of the Magic 2010 edition whose history has a step of changed examples
    const found = kb
      .numbers(ed.id)
      .map((n) => ({ n, h: kb.history(ed, n) }))
      .find(({ h }) => h?.steps.some((s) => s.examplesChanged));
    assert.ok(found, 'a rule whose examples changed');
    const body = historyPage(kb, ed, found.n, found.h!).main.value;
    assert.match(body, /<div class="example-change">(<p><(del|ins)>Example: )/);
  } finally {
    kb.close();
  }
});
