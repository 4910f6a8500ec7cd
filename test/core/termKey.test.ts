import { test } from 'node:test';
import assert from 'node:assert/strict';
import { termKey } from '../../src/core/termKey.js';
import { diffGlossary } from '../../src/engine/diffEditions.js';

test('a glossary term is the same term whatever its case, curly or straight quotes and apostrophes', () => {
  assert.equal(termKey('Attacks and Isn’t Blocked'), termKey(" attacks and isn't blocked "));
  assert.equal(termKey('“As though”'), termKey('"AS THOUGH"'));
  assert.notEqual(termKey('Planar _Magic_'), termKey('Planar Magic'));
  assert.notEqual(termKey('Control, Controller'), termKey('Control/Controller'));
});

test('a term whose quotes changed is no removed and added term in a diff: its definition is compared', () => {
  const texts = ['Used in effects.', 'Used in effects.', 'Used in some effects.'];
  const text = (id: number) => ({ text: texts[id]! });
  assert.deepEqual(diffGlossary({ from: [['“As though”', 0]], to: [['"As though"', 1]], text }, false), []);
  assert.deepEqual(diffGlossary({ from: [['“As though”', 0]], to: [['"As Though"', 2]], text }, false), [
    { term: '"As Though"', before: 'Used in effects.', after: 'Used in some effects.', textChange: 'substantive' },
  ]);
});
