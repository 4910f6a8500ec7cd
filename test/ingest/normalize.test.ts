import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeText } from '../../src/core/normalize.js';

test('folds quotes, dashes, trademarks, underscores, case and whitespace', () => {
  const a = normalizeText('Modal cards printed prior to the Khans of Tarkir™ set didn’t use “bulleted” lists — see _Magic_.');
  const b = normalizeText('Modal cards printed prior to the Khans of Tarkir(TM) set didn\'t use "bulleted" lists -- see Magic.');
  assert.equal(a, b);
});

test('folds lost-character damage: a ? for a dash, dropped apostrophes', () => {
  assert.equal(normalizeText('Creature ? Goblin'), normalizeText('Creature — Goblin'));
  assert.equal(normalizeText('they werent able to'), normalizeText('they weren’t able to'));
});

test('keeps different words different', () => {
  assert.notEqual(normalizeText('rule 706.10'), normalizeText('rule 707.10'));
  assert.notEqual(normalizeText('his or her'), normalizeText('their'));
});
