import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextPlaces } from '../../src/db/TextPlaces.js';

/** The places of a text as [pos, example] pairs (pos < 0: glossary entry -1 - pos). */
const placesOf = (p: TextPlaces, textId: number): Array<[number, number]> => {
  const k = p.find(textId);
  if (k < 0) return [];
  const out: Array<[number, number]> = [];
  for (let j = p.start[k]!; j < p.start[k + 1]!; j++) out.push([p.pos[j]!, p.example[j]!]);
  return out;
};

test('TextPlaces lists every place an edition shows a text: rule texts, examples by index, glossary definitions', () => {
  // positions 0..3: text 10 printed twice, text 30 an example of two rules (index 1 and 0), text 40 a rule's and a definition
  const p = new TextPlaces(
    [
      [10, []],
      [20, [31, 30]],
      [10, [30]],
      [40, []],
    ],
    [50, 40],
  );
  assert.deepEqual([...p.texts], [10, 20, 30, 31, 40, 50]);
  assert.deepEqual(placesOf(p, 10), [
    [0, -1],
    [2, -1],
  ]);
  assert.deepEqual(placesOf(p, 30), [
    [1, 1],
    [2, 0],
  ]);
  assert.deepEqual(placesOf(p, 40), [
    [3, -1],
    [-2, -1],
  ]);
  assert.deepEqual(placesOf(p, 50), [[-1, -1]]);
  assert.equal(p.find(11), -1);
  assert.equal(p.find(0), -1);
  assert.equal(p.find(99), -1);
});
