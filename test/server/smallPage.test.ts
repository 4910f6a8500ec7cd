import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { smallPage } from '../../src/server/smallPage.js';
import { corpusDb } from '../cli/corpusDb.js';

const dbFile = corpusDb();
let kb: KnowledgeBase;
before(() => {
  kb = KnowledgeBase.open(dbFile());
});
after(() => kb.close());
const small = smallPage(() => kb);

test('section pages and rule histories with few rules below are answered on the serving thread; large ones and the rest are not', () => {
  // 100 "General" has a handful of rules; 702 "Keyword Abilities" hundreds, 701 about two hundred
  assert.equal(small('page', '/cr/latest/100', {}), true);
  assert.equal(small('page', '/cr/2021-07-23/613', {}), true);
  assert.equal(small('page', '/cr/latest/702', {}), false);
  assert.equal(small('page', '/cr/latest/701', {}), false);
  assert.equal(small('page', '/cr/latest/glossary', {}), false);
  assert.equal(small('history', '/history/702.19', { edition: '2021-07-23' }), true);
  assert.equal(small('history', '/history/702.19b', {}), true);
  // a section's history follows its whole subtree over every edition: the heavy thread's
  assert.equal(small('history', '/history/613', {}), false);
  // what the edition lacks (a former number), an unknown edition, a bad escape: the heavy thread answers, as before
  assert.equal(small('history', '/history/706.10', {}), false);
  assert.equal(small('page', '/cr/1066-01-01/100', {}), false);
  assert.equal(small('page', '/cr/%E0%A4%A/100', {}), false);
  assert.equal(small('diff', '/diff/2021-06-18/2021-07-23', {}), false);
});

test('the subtree size and the existence of a number are read without the rules', () => {
  const ed = kb.resolveEdition('latest').edition;
  const rule = kb.rule(ed.id, '702.19')!;
  assert.equal(kb.subtreeSize(ed.id, '702.19'), kb.descendants(rule).length);
  // 702.1's subrules are 702.1a…, not 702.10 and its subrules
  assert.equal(kb.subtreeSize(ed.id, '702.1'), kb.descendants(kb.rule(ed.id, '702.1')!).length);
  assert.equal(kb.subtreeSize(ed.id, '702'), kb.descendants(kb.rule(ed.id, '702')!, Infinity).length);
  assert.equal(kb.subtreeSize(ed.id, '999.99'), -1);
  assert.equal(kb.hasRule(ed.id, '702.19b'), true);
  assert.equal(kb.hasRule(ed.id, '702.19z'), false);
});
