import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CopyGate } from '../../ingest/store/CopyGate.js';

test('a copy outranked by one already admitted for the same edition is not admitted', () => {
  const gate = new CopyGate();
  const text = { official: true, fidelity: [0, 0, 0, 0, 1, 40], sha256: 'b' };
  const word = { official: true, fidelity: [0, 0, 0, 0, 0, 40], sha256: 'a' };
  assert.equal(gate.admits('cr|2021-07-23', text), true);
  // a Word document of the same quality ranks below the text file
  assert.equal(gate.admits('cr|2021-07-23', word), false);
  assert.equal(gate.admits('cr|2021-06-18', word), true, 'another edition');
  assert.equal(gate.admits(null, word), true, 'an edition not known yet');
  // equal fidelity: the lower hash ranks first
  assert.equal(gate.admits('cr|2021-07-23', { ...text, sha256: 'c' }), false);
  assert.equal(gate.admits('cr|2021-07-23', { ...text, sha256: 'a' }), true);
  // a better copy raises the bar
  assert.equal(gate.admits('cr|2021-07-23', { official: true, fidelity: [0, 0, 0, 0, 1, 50], sha256: 'z' }), true);
  assert.equal(gate.admits('cr|2021-07-23', { ...text, sha256: '0' }), false);
});

test('an official copy outranks any other, however rich the other', () => {
  const gate = new CopyGate();
  const word = { official: true, fidelity: [0, 0, 0, 0, 0, 10], sha256: 'b' };
  const reencoded = { official: false, fidelity: [0, 0, 0, 0, 1, 4000], sha256: 'a' };
  assert.equal(gate.admits('cr|2019-01-25', word), true);
  assert.equal(gate.admits('cr|2019-01-25', reencoded), false, 'a richer non-official text file does not replace the official Word file');
  const other = new CopyGate();
  assert.equal(other.admits('cr|2019-01-25', reencoded), true);
  assert.equal(other.admits('cr|2019-01-25', word), true, 'the official copy comes after a non-official one and still wins');
});
