import { test } from 'node:test';
import assert from 'node:assert/strict';
import { familyOf, policyNumberArg, splitUnitText, unitText } from '../../src/core/policyUnit.js';
import { familyInQuery } from '../../src/query/familyQuery.js';
import { familyArg, ruleNumberArg } from '../../src/query/edgeArgs.js';

test('a unit text carries its title and penalty on its first line, and splits back', () => {
  const t = unitText('Game Play Error — Missed Trigger', 'Warning', 'Definition\nA triggered ability triggers.');
  assert.equal(t, 'Game Play Error — Missed Trigger\tWarning\nDefinition\nA triggered ability triggers.');
  assert.deepEqual(splitUnitText(t), { title: 'Game Play Error — Missed Trigger', penalty: 'Warning', body: 'Definition\nA triggered ability triggers.' });
  assert.deepEqual(splitUnitText(unitText('Tournament Shortcuts', null, '')), { title: 'Tournament Shortcuts', penalty: null, body: '' });
});

test('section numbers of the MTR and IPG as people type them', () => {
  assert.equal(policyNumberArg('IPG 2.1.'), '2.1');
  assert.equal(policyNumberArg('101'), '101');
  assert.equal(policyNumberArg('appendix b'), 'Appendix B');
  assert.equal(policyNumberArg('702.19b'), null);
  assert.equal(ruleNumberArg('mtr 4.2', 'number', 'mtr'), '4.2');
  assert.throws(() => ruleNumberArg('4.2x', 'number', 'ipg'), /not a section number of the IPG/);
});

test('a query names its document at its head; a CR query is read as it always was', () => {
  assert.deepEqual(familyInQuery('ipg 2.1'), { family: 'ipg', text: '2.1' });
  assert.deepEqual(familyInQuery('!MTR: 4.2'), { family: 'mtr', text: '4.2' });
  assert.deepEqual(familyInQuery('ipg missed trigger'), { family: 'ipg', text: 'missed trigger' });
  assert.deepEqual(familyInQuery('cr 702.19b'), { family: null, text: 'cr 702.19b' });
  assert.deepEqual(familyInQuery('ipgs are fun'), { family: null, text: 'ipgs are fun' });
  assert.equal(familyOf('IPG'), 'ipg');
  assert.equal(familyArg(undefined), 'cr');
  assert.equal(familyArg('JAR'), 'jar');
  assert.deepEqual(familyInQuery('jar missed trigger'), { family: 'jar', text: 'missed trigger' });
  assert.throws(() => familyArg('tmr'), /family must be cr, rulings, mtr, ipg, jar, not "tmr"/);
});
