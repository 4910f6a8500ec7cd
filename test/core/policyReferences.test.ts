import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPolicyReferences, refTarget } from '../../src/core/policyReferences.js';

const targets = (text: string, own: 'mtr' | 'ipg' | 'cr', explicit = false) => extractPolicyReferences(text, own, explicit).map((r) => `${r.kind}:${r.target}`);

test('references in the tournament documents: own sections bare, other documents by family, unstored documents left out', () => {
  // sentences as the MTR and IPG editions write them
  assert.deepEqual(targets('The Out-of-Order Sequencing rules (MTR section 4.3) may also be applicable', 'ipg'), ['section:mtr:4.3']);
  assert.deepEqual(targets('the Player Communication policy (see MTR 4.1).', 'ipg'), ['section:mtr:4.1']);
  assert.deepEqual(targets('are laid out in section 4.1 of the Magic Tournament Rules and can be summarized as:', 'ipg'), ['section:mtr:4.1']);
  assert.deepEqual(targets('Now covers all of section 4 of the MTR, but requires acting on confusion.', 'ipg'), ['section:mtr:4']);
  assert.deepEqual(targets('If a player mulligans (Magic Comprehensive Rules, rule 103.4), they shuffle.', 'mtr'), ['rule:cr:103.4']);
  assert.deepEqual(targets('the standard order set forth in the Magic Comprehensive Rules (see section 101.5a).', 'mtr'), ['rule:cr:101.5a']);
  assert.deepEqual(targets('Two-Headed Giant found can be found in section 6 of the Magic Comprehensive Rules.', 'mtr'), ['part:cr:6']);
  assert.deepEqual(targets('An exception to the Magic Comprehensive Rules, section 606.4a.', 'mtr'), ['rule:cr:606.4a']);
  assert.deepEqual(targets('A shortcut never skips a state-based action (rule 704.3) nor CR 117.3a.', 'mtr'), ['rule:cr:704.3', 'rule:cr:117.3a']);
  assert.deepEqual(targets('Players shuffle their decks (see Universal Tournament Rules, section 21).', 'mtr'), []);
  assert.deepEqual(targets('as outlined in the DCI Universal Tournament Rules, sections 70–74', 'mtr'), []);
  assert.deepEqual(targets('Refer to section 25 of the Universal Tournament Rules for a description', 'ipg'), []);
  // the document's own sections
  assert.deepEqual(targets('Tournament shortcuts (see section 4.2) and sections 3.1-3.3.', 'mtr'), [
    'section:4.2',
    'section:3.1',
    'section:3.2',
    'section:3.3',
  ]);
  // a range of CR subrules expands as the CR's own references do (references.ts expandRange)
  assert.deepEqual(targets('Every nonland card is a spell (see rules 409.1a–409.1d).', 'mtr'), [
    'rule:cr:409.1a',
    'rule:cr:409.1b',
    'rule:cr:409.1c',
    'rule:cr:409.1d',
  ]);
  assert.deepEqual(targets('following the order established by rule 113—Who Plays First.', 'mtr'), ['section:113']);
  assert.deepEqual(targets('section 2.1 of the Infraction Procedure Guide', 'mtr'), ['section:ipg:2.1']);
  // a text that is neither: only mentions naming a document
  assert.deepEqual(targets('See IPG 3.2 (Game Rule Violation), MTR 2.3 and section 4 of this guide.', 'cr', true), ['section:ipg:3.2', 'section:mtr:2.3']);
  assert.deepEqual(refTarget('mtr:4.2'), { family: 'mtr', number: '4.2' });
  assert.deepEqual(refTarget('704.5'), { family: null, number: '704.5' });
});
