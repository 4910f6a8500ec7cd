import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CopyGate } from '../../ingest/store/CopyGate.js';

test('a copy outranked by one already admitted for the same edition is not admitted', () => {
  const gate = new CopyGate();
  const text = { fidelity: [0, 0, 0, 0, 1, 40], sha256: 'b' };
  const word = { fidelity: [0, 0, 0, 0, 0, 40], sha256: 'a' };
  assert.equal(gate.admits('cr|2021-07-23', text), true);
  // a Word document of the same quality ranks below the text file
  assert.equal(gate.admits('cr|2021-07-23', word), false);
  assert.equal(gate.admits('cr|2021-06-18', word), true, 'another edition');
  assert.equal(gate.admits(null, word), true, 'an edition not known yet');
  // equal fidelity: the lower hash ranks first
  assert.equal(gate.admits('cr|2021-07-23', { ...text, sha256: 'c' }), false);
  assert.equal(gate.admits('cr|2021-07-23', { ...text, sha256: 'a' }), true);
  // a better copy raises the bar
  assert.equal(gate.admits('cr|2021-07-23', { fidelity: [0, 0, 0, 0, 1, 50], sha256: 'z' }), true);
  assert.equal(gate.admits('cr|2021-07-23', { ...text, sha256: '0' }), false);
});
