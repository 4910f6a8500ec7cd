import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identify, looseText, normHash, wordSimilarity, type EditionTexts } from '../../ingest/store/identify.js';

let nextTextId = 1;
const ids = new Map<string, number>();
function edition(editionId: number, effectiveDate: string, rules: Record<string, string>): EditionTexts {
  const m = new Map<string, { textId: number; normH: number; text: string }>();
  for (const [number, text] of Object.entries(rules)) {
    let textId = ids.get(text);
    if (textId === undefined) ids.set(text, (textId = nextTextId++));
    m.set(number, { textId, normH: normHash(text), text });
  }
  return { editionId, effectiveDate, label: '', official: true, rules: m };
}

const A1 = 'A player can’t cast a spell if it isn’t legal.';
const A2 = 'A player can’t cast a spell unless it is legal.';
const B = 'Each player draws a card, then discards a card at random from their hand.';
const C = 'The “active player” is the player whose turn it is.';
const D = 'Damage dealt to a creature stays until the cleanup step.';

const editions = [
  edition(1, '2019-01-01', { '100.1': A1, '100.2': B, '100.3': C }),
  edition(2, '2020-01-01', { '100.1': A1, '100.2': B, '100.3': C, '100.4': D }),
  edition(3, '2020-06-01', { '100.1': A1, '100.2': B, '100.3': C, '100.4': D }),
  edition(4, '2021-01-01', { '100.1': A2, '100.2': B, '100.3': C, '100.4': D }),
];

test('lost apostrophes and quotes still match exactly; the best range is the run of top-scoring editions', () => {
  const r = identify(
    [
      { number: '100.1', text: 'A player cant cast a spell if it isnt legal.' },
      { number: '100.3', text: 'The active player is the player whose turn it is.' },
      { number: '100.4', text: D },
    ],
    editions,
  );
  assert.equal(r.total, 3);
  assert.deepEqual(
    r.editions.map((e) => [e.effectiveDate, e.exact, e.near, e.differs, e.absent]),
    [
      ['2019-01-01', 2, 0, 0, 1],
      ['2020-01-01', 3, 0, 0, 0],
      ['2020-06-01', 3, 0, 0, 0],
      ['2021-01-01', 2, 0, 1, 0],
    ],
  );
  assert.equal(r.best?.from, '2020-01-01');
  assert.equal(r.best?.to, '2020-06-01');
  assert.equal(r.reference?.editionId, 3);
  assert.equal(r.disagreements.length, 0);
  assert.equal(r.matchRatio, 1);
  assert.equal(r.summary, 'matches 2020-01-01 … 2020-06-01 on 3 of 3 rules; 0 disagreements');
});

test('a contradicting rule is near, listed with its word diff against the reference edition', () => {
  const contradicted = 'Each player draws a card, then discards a card at random from their library.';
  const r = identify(
    [
      { number: '100.1', text: A1 },
      { number: '100.2', text: contradicted },
      { number: '100.9', text: 'A rule no edition has.' },
    ],
    editions.slice(0, 3),
  );
  assert.equal(r.best?.from, '2019-01-01');
  assert.equal(r.best?.to, '2020-06-01');
  assert.equal(r.best?.exact, 1);
  assert.equal(r.best?.near, 1);
  assert.deepEqual(
    r.disagreements.map((d) => [d.number, d.status]),
    [
      ['100.2', 'near'],
      ['100.9', 'absent'],
    ],
  );
  const d = r.disagreements[0]!;
  assert.equal(d.official, B);
  assert.ok(d.similarity >= 0.9 && d.similarity < 1);
  assert.deepEqual(
    d.diff?.filter((s) => s.op !== 'equal'),
    [
      { op: 'delete', text: 'hand' },
      { op: 'insert', text: 'library' },
    ],
  );
  assert.match(r.summary, /on 2 of 3 rules \(1 near\); 2 disagreements$/);
});

test('a rewritten rule differs; typography-only changes are folded out of the diff', () => {
  const r = identify([{ number: '100.1', text: 'A player can\'t cast anything "at all" during cleanup.' }], [editions[3]!]);
  assert.equal(r.best, null);
  assert.equal(r.rules[0]!.status, 'differs');
  assert.ok(r.rules[0]!.similarity < 0.9);
  // Nothing matched: the rules are still compared with the edition holding their numbers.
  assert.equal(r.reference?.effectiveDate, '2021-01-01');
  assert.ok(r.rules[0]!.diff?.some((s) => s.op === 'insert' && s.text.includes('anything')));
  assert.match(r.summary, /^matches no stored edition \(0 of 1 rules; at most 1 of its numbers exist in one/);
  const folded = identify([{ number: '100.1', text: "A player can't cast a card unless it is legal." }], [editions[3]!]).rules[0]!;
  assert.equal(folded.status, 'near');
  assert.deepEqual(
    folded.diff?.filter((s) => s.op !== 'equal'),
    [
      { op: 'delete', text: 'spell' },
      { op: 'insert', text: 'card' },
    ],
  );
  assert.equal(folded.diff?.find((s) => s.op === 'equal')?.text.startsWith("A player can't"), true);
});

test('a reference edition can be given; exact matches need no stored body', () => {
  const withoutBodies: EditionTexts = {
    ...editions[1]!,
    rules: new Map([...editions[1]!.rules].map(([n, o]) => [n, { ...o, text: null }])),
  };
  const r = identify(
    [
      { number: '100.1', text: A1 },
      { number: '100.4', text: D },
    ],
    [editions[0]!, withoutBodies, editions[3]!],
    {
      referenceId: 4,
    },
  );
  assert.equal(r.best?.from, '2020-01-01');
  assert.equal(r.best?.to, '2020-01-01');
  assert.equal(r.reference?.effectiveDate, '2021-01-01');
  assert.deepEqual(
    r.disagreements.map((d) => d.number),
    ['100.1'],
  );
  assert.match(r.summary, /against 2021-01-01$/);
});

test('ties: the longest run wins and the others are listed; duplicate numbers count once', () => {
  const eds = [
    edition(10, '2001-01-01', { '1.1': A1 }),
    edition(11, '2002-01-01', { '1.1': A2 }),
    edition(12, '2003-01-01', { '1.1': A1 }),
    edition(13, '2004-01-01', { '1.1': A1 }),
  ];
  const r = identify(
    [
      { number: '1.1', text: A1 },
      { number: '1.1', text: 'ignored' },
    ],
    eds,
  );
  assert.equal(r.total, 1);
  assert.deepEqual([r.best?.from, r.best?.to, r.best?.editions], ['2003-01-01', '2004-01-01', 2]);
  assert.deepEqual(
    r.alsoMatches.map((m) => m.from),
    ['2001-01-01'],
  );
  assert.match(r.summary, /also 2001-01-01/);
});

test('looseText and wordSimilarity', () => {
  assert.equal(looseText('The “active player” isn’t'), looseText('The active player isnt'));
  assert.notEqual(looseText('a b'), looseText('a c'));
  assert.equal(wordSimilarity('one two three four', 'one two three four'), 1);
  assert.equal(wordSimilarity('one two three four', 'one two three five'), 0.75);
});
