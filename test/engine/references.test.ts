import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractReferences, expandRange } from '../../src/core/references.js';

const targets = (text: string): string[] => extractReferences(text).map((r) => r.target);

test('single rule references, with spans covering the number', () => {
  const text = 'The copy rule is in rule 706.10, see it.';
  const refs = extractReferences(text);
  assert.deepEqual(refs, [{ target: '706.10', kind: 'rule', start: text.indexOf('706.10'), end: text.indexOf('706.10') + 6 }]);
  assert.deepEqual(targets('see rule 509.1b'), ['509.1b']);
  assert.deepEqual(targets('(See rule 601.2b.)'), ['601.2b']);
  assert.deepEqual(targets('See rule 700.4.'), ['700.4']);
  assert.deepEqual(targets('For more, see rule 903.6'), ['903.6']);
});

test('letter ranges expand, skipping l and o, en dash or hyphen', () => {
  assert.deepEqual(targets('rules 601.2a–h'), ['601.2a', '601.2b', '601.2c', '601.2d', '601.2e', '601.2f', '601.2g', '601.2h']);
  assert.deepEqual(targets('the steps in 601.2f–h are'), ['601.2f', '601.2g', '601.2h']);
  assert.deepEqual(targets('(see rules 601.2f-h)'), ['601.2f', '601.2g', '601.2h']);
  assert.deepEqual(targets('rules 704.5k–n'), ['704.5k', '704.5m', '704.5n']);
  assert.deepEqual(targets('rules 103.2a–e'), ['103.2a', '103.2b', '103.2c', '103.2d', '103.2e']);
  assert.deepEqual(expandRange('704.5j', 'p'), ['704.5j', '704.5k', '704.5m', '704.5n', '704.5p']);
  // one span for the whole range
  const refs = extractReferences('rules 601.2f–h');
  assert.ok(refs.every((r) => r.start === 6 && r.end === 14));
});

test('lists joined by commas, "and" and "or"', () => {
  assert.deepEqual(targets('rules 702.2b and 702.2c'), ['702.2b', '702.2c']);
  assert.deepEqual(targets('rules 702.2b, 702.2c, and 702.2d'), ['702.2b', '702.2c', '702.2d']);
  assert.deepEqual(targets('See rules 205.1a–b, 305.7, and 613.1d.'), ['205.1a', '205.1b', '305.7', '613.1d']);
  assert.deepEqual(targets('See rules 614 and 615.'), ['614', '615']);
  assert.deepEqual(targets('in 602.5d or 602.5e'), ['602.5d', '602.5e']);
});

test('numeric ranges: subrule numbers and whole rules', () => {
  assert.deepEqual(targets('rules 509.1–3'), ['509.1', '509.2', '509.3']);
  assert.deepEqual(targets('rules 119.9–10'), ['119.9', '119.10']);
  assert.deepEqual(targets('See rules 903.6–903.11.'), ['903.6', '903.7', '903.8', '903.9', '903.10', '903.11']);
  assert.deepEqual(targets('rules 800.2–800.4'), ['800.2', '800.3', '800.4']);
  assert.deepEqual(targets('steps 409.1a-409.1c of'), ['409.1a', '409.1b', '409.1c']);
  assert.deepEqual(targets('(See rules 212-215.)'), ['212', '213', '214', '215']);
});

test('sections and parts', () => {
  const r = extractReferences('See rule 614, “Replacement Effects.”');
  assert.deepEqual(
    r.map((x) => [x.target, x.kind]),
    [['614', 'section']],
  );
  assert.deepEqual(
    extractReferences('See section 9, “Casual Variants.”').map((x) => [x.target, x.kind]),
    [['9', 'part']],
  );
  assert.deepEqual(
    extractReferences('See section 410, "Handling Triggered Abilities."').map((x) => x.kind),
    ['section'],
  );
  assert.deepEqual(
    extractReferences('See section 217.2, "Library."').map((x) => x.kind),
    ['rule'],
  );
});

test('old-era quoted titles and 1999 hard-wrapped text', () => {
  assert.deepEqual(targets('skips the draw step (see rule 304, "Draw Step")'), ['304']);
  const wrapped = 'Priority doesn\'t apply to them. (See rule 418, "Continuous Effects" and rule\n  408.2, "Actions That Don\'t Use the Stack.")';
  assert.deepEqual(targets(wrapped), ['418', '408.2']);
  assert.deepEqual(targets('this is legal. (See rules\n306-311 and section 5, "Additional Combat\nRules.")'), ['306', '307', '308', '309', '310', '311', '5']);
  assert.deepEqual(targets('see rule 304, "Draw Step," and rule 305'), ['304', '305']);
});

test('numbers that are not references are left alone', () => {
  assert.deepEqual(targets('Each player begins the game with 20 life.'), []);
  assert.deepEqual(targets('a 3/4 creature costs {2} since 2009, 1.5 times'), []);
  assert.deepEqual(targets('In a Two-Headed Giant game, each team has 30 life. Rules 1 through 3'), []);
  assert.deepEqual(targets('Add {G}. Version 100 of the rules'), []);
});
