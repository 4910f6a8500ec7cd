import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { LETTERS } from '../../src/core/ruleNumber.js';
import { formatLookup } from '../../src/query/chatText.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { QueryError } from '../../src/query/QueryError.js';
import { doc, fixtureDb } from '../server/fixtures.js';

// An edition with the glossary entries people ask about, pointing at sections, and a long 704.5.
const sba: Array<[string, string]> = [...LETTERS].map((l) => [
  `704.5${l}`,
  `State-based action ${l}: ${'if some condition holds, something happens to it. '.repeat(2).trim()}`,
]);
const db = fixtureDb(':memory:', [
  doc(
    '2021-07-23',
    [
      ['101', 'General'],
      ['101.4', 'If multiple players would make choices at the same time, the active player makes any choices first.'],
      ['111', 'Tokens'],
      ['111.1', 'Some effects put tokens onto the battlefield.'],
      ['111.2', 'The player who creates a token is its owner.'],
      ['111.2a', 'A detail of token ownership.'],
      ['208', 'Power/Toughness'],
      ['208.1', 'A creature card has two numbers separated by a slash printed in its lower right corner.'],
      ['603', 'Handling Triggered Abilities'],
      ['603.6a', 'Enters-the-battlefield abilities trigger when a permanent enters the battlefield.'],
      ['700', 'General'],
      ['700.4', 'The term dies means "is put into a graveyard from the battlefield."'],
      ['702', 'Keyword Abilities'],
      ['702.19', 'Trample'],
      ['702.19a', 'Trample is a static ability.'],
      ['702.19b', 'The controller of an attacking creature with trample first assigns damage to the blockers.', ['First example.', 'Second example.']],
      ['704', 'State-Based Actions'],
      ['704.1', 'State-based actions are game actions that happen automatically.'],
      ['704.5', 'The state-based actions are as follows:'],
      ...sba,
    ],
    [
      ['Active Player, Nonactive Player Order', 'A system that determines the order of choices. See rule 101.4.'],
      ['APNAP Order', 'See Active Player, Nonactive Player Order.'],
      ['Dies', 'A creature or planeswalker "dies" if it is put into a graveyard from the battlefield. See rule 700.4.'],
      ['Enters the Battlefield', 'A permanent enters the battlefield when it moves there. See rule 603.6a.'],
      ['State-Based Actions', 'Game actions that happen automatically. See rule 704, "State-Based Actions."'],
      ['Token', 'A marker used to represent any permanent that isn\'t represented by a card. See rule 111, "Tokens."'],
    ],
  ),
]);
db.prepare("UPDATE editions SET set_code = 'AFR' WHERE effective_date = '2021-07-23'").run();
const kb = new KnowledgeBase(db);
after(() => kb.close());
const edition = kb.resolveEdition('latest').edition;
const look = (q: string) => kb.lookup(edition, q);
const numbers = (q: string) => look(q).rules.map((r) => r.number);

test('"define dies" and "what is dies" answer the glossary term and its rule', () => {
  for (const q of ['define dies', 'what is dies', 'What does dies mean?', 'dies']) {
    const a = look(q);
    assert.equal(a.kind, 'glossary', q);
    assert.deepEqual(
      a.glossary.map((g) => g.term),
      ['Dies'],
      q,
    );
    assert.deepEqual(numbers(q), ['700.4'], q);
  }
});

test('a term pointing at a section answers with its first rules: "what is a token", "state-based actions"', () => {
  assert.deepEqual(numbers('what is a token'), ['111', '111.1', '111.2']);
  assert.equal(look('what is a token').matched, 'Token');
  assert.deepEqual(numbers('state-based actions'), ['704', '704.1', '704.5']);
});

test('abbreviations judges type resolve, and a "See X." entry answers with X', () => {
  assert.equal(look('sba').matched, 'State-Based Actions');
  assert.equal(look('SBA').glossary[0]!.term, 'State-Based Actions');
  assert.deepEqual(numbers('etb'), ['603.6a']);
  assert.deepEqual(numbers('apnap'), ['101.4']);
  assert.deepEqual(
    look('APNAP order').glossary.map((g) => g.term),
    ['APNAP Order', 'Active Player, Nonactive Player Order'],
  );
  // no glossary entry: the section titled Power/Toughness
  assert.deepEqual(numbers('p/t'), ['208', '208.1']);
});

test('"702.19b ex 2" picks one example; a missing one is NOT_FOUND', () => {
  for (const q of ['702.19b ex 2', '702.19b example 2', 'CR 702.19b, example #2']) {
    const a = look(q);
    assert.equal(a.kind, 'example', q);
    assert.deepEqual(a.example, { index: 2, text: 'Second example.' });
  }
  const text = formatLookup(look('702.19b ex 2'), 'text', (r) => kb.examples(r), { examples: false, fullUrl: 'x' });
  assert.match(text, /^702\.19b The controller.*\n {2}Example 2: Second example\.\n/);
  assert.doesNotMatch(text, /First example/);
  assert.throws(
    () => look('702.19b ex 3'),
    (e: unknown) => e instanceof QueryError && e.code === 'NOT_FOUND' && /has 2 examples/.test(e.message),
  );
});

test('a cut answer names the subrules it could not show, with the link to the rest', () => {
  for (const format of ['text', 'markdown'] as const) {
    const out = formatLookup(look('704.5'), format, () => [], { examples: false, fullUrl: 'https://crkb.test/full' });
    assert.ok(out.length <= 2000, `${format} ${out.length}`);
    const last = out.split('\n').at(-1)!;
    const shown = out.split('\n').filter((l) => /^(\*\*)?704\.5[a-z]/.test(l)).length;
    const firstHidden = LETTERS[shown]!;
    assert.ok(shown > 3 && shown < LETTERS.length, `${shown} shown`);
    assert.ok(last.includes(`704.5${firstHidden}–704.5z not shown`), last);
    assert.ok(last.includes('https://crkb.test/full'), last);
  }
});

test('a set code names an edition', () => {
  assert.equal(kb.resolveEdition('afr').edition.effectiveDate, '2021-07-23');
  assert.equal(kb.resolveEdition('AFR').exact, true);
  // a set newer than the database: the answer says what is stored rather than "not a date"
  assert.throws(
    () => kb.resolveEdition('mom'),
    (e: Error) => /no stored edition was published with a set coded "MOM" \(the newest stored is 2021-07-23 \(AFR\)\)/.test(e.message),
  );
});
