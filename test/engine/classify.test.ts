import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuleText, textClass } from '../../src/engine/compareRule.js';
import { diffToJson, lineageResolver, partLineages } from '../../src/engine/diffEditions.js';
import { diffFixtures as diffEditions, type FixtureEdition } from './memorySource.js';

const resolver =
  (m: Record<string, number>) =>
  (t: string): number | null =>
    m[t] ?? null;
const none = (): null => null;

test('typography beyond normalizeText: a bare TM and punctuation moved around a parenthesis', () => {
  const tm = compareRuleText('Cards from the _Odyssey_TM block can be played.', 'Cards from the _Odyssey_(TM) block can be played.', none, none);
  assert.equal(textClass(tm), 'typography');
  const paren = compareRuleText('Players may cast spells. (See rule 116.)', 'Players may cast spells. (See rule 116).', none, none);
  assert.equal(textClass(paren), 'typography');
  assert.equal(textClass(compareRuleText('Players may cast spells.', 'Players may cast spells!', none, none)), 'substantive');
  assert.equal(textClass(compareRuleText('Same.', 'Same.', none, none)), 'none');
  // letters outside ASCII fold too; a changed digit is no typography
  assert.equal(textClass(compareRuleText('The Æther Flash card.', 'The Aether Flash card.', none, none)), 'typography');
  assert.equal(textClass(compareRuleText('The “DCI®” rules.', 'The "DCI" rules.', none, none)), 'typography');
  assert.equal(textClass(compareRuleText('Draw 2 cards.', 'Draw 3 cards.', none, none)), 'substantive');
  // the texts part inside a mark: the words are compared from before it
  assert.equal(textClass(compareRuleText('See the Odyssey(TM) block rules.', 'See the Odyssey(R) block rules.', none, none)), 'typography');
  assert.equal(textClass(compareRuleText('See the OdysseyTM block rules.', 'See the OdysseyTMX block rules.', none, none)), 'substantive');
});

test('a range is compared by its ends: new subrules inside it are a reference update', () => {
  // 608.2c..k became 608.2c..m: two subrules were inserted, the last one (lineage 11) relettered
  const rb = resolver({ '608.2c': 1, '608.2d': 2, '608.2k': 11 });
  const ra = resolver({ '608.2c': 1, '608.2d': 2, '608.2m': 11 });
  const c = compareRuleText('Follow rules 608.2c–k in order.', 'Follow rules 608.2c–m in order.', rb, ra);
  assert.equal(c.textChange, 'references');
  // a range whose end is now another rule is substantive
  const moved = resolver({ '608.2c': 1, '608.2m': 12 });
  assert.equal(compareRuleText('Follow rules 608.2c–k in order.', 'Follow rules 608.2c–m in order.', rb, moved).textChange, 'substantive');
});

test('a part reference resolves to the part of the same title', () => {
  const [pf, pt] = partLineages(
    [
      ['5', 'Additional Rules'],
      ['6', 'Multiplayer Rules'],
    ],
    [
      ['7', 'Additional Rules'],
      ['8', 'Multiplayer Rules'],
      ['9', 'Casual Variants'],
    ],
  );
  const rf = lineageResolver(
    () => undefined,
    [],
    (t) => pf.get(t) ?? null,
  );
  const rt = lineageResolver(
    () => undefined,
    [],
    (t) => pt.get(t) ?? null,
  );
  const before = 'A multiplayer game begins with more than two players. See section 6, "Multiplayer Rules."';
  assert.equal(compareRuleText(before, before.replace('section 6', 'section 8'), rf, rt).textChange, 'references');
  assert.equal(compareRuleText(before, before.replace('section 6', 'section 9'), rf, rt).textChange, 'substantive');
});

const rule = (number: string, text: string, lineage: number, examples: string[] = []): FixtureEdition['rules'][number] => ({ number, text, lineage, examples });

test('--json carries typography, glossary and example changes with the same classes', () => {
  const from: FixtureEdition = {
    date: '2020-01-01',
    rules: [
      rule('100', 'General', 1),
      rule('100.1', 'These rules apply to “any” game. (See rule 100.)', 2, ['Example: one.', 'Example: see rule 100.2.']),
      rule('100.2', 'Old rule.', 3),
    ],
    glossary: [
      { term: 'Game', definition: 'See rule 100.2.' },
      { term: 'Match', definition: 'Several games.' },
    ],
  };
  const to: FixtureEdition = {
    date: '2020-02-01',
    rules: [
      rule('100', 'General', 1),
      rule('100.1', 'These rules apply to "any" game. (See rule 100).', 2, ['Example: one!', 'Example: see rule 100.3.']),
      rule('100.2', 'New rule.', 4),
      rule('100.3', 'Old rule.', 3),
    ],
    glossary: [
      { term: 'Game', definition: 'See rule 100.3.' },
      { term: 'Match', definition: 'Several games, played in a row.' },
    ],
  };
  const json = diffToJson(diffEditions(from, to));
  assert.equal(json.changes.find((c) => c.after?.number === '100.1')?.textChange, 'typography');
  assert.deepEqual(
    json.glossary.map((g) => [g.term, g.textChange]),
    [
      ['Game', 'references'],
      ['Match', 'substantive'],
    ],
  );
  // "one." → "one!" is a wording change: the examples' class is the strongest of their changes
  assert.deepEqual(
    json.examples.map((x) => [x.number, x.textChange]),
    [['100.1', 'substantive']],
  );
  const onlyRefs = diffToJson(
    diffEditions(
      { ...from, rules: [from.rules[0]!, { ...from.rules[1]!, examples: ['Example: see rule 100.2.'] }, from.rules[2]!] },
      { ...to, rules: [to.rules[0]!, { ...to.rules[1]!, examples: ['Example: see rule 100.3.'] }, to.rules[2]!, to.rules[3]!] },
    ),
  );
  assert.deepEqual(
    onlyRefs.examples.map((x) => x.textChange),
    ['references'],
  );
});

test('the repair of a stale citation is a reference correction, not a substantive change', () => {
  // 701.36 was Goad in both editions; Exert is 701.37 (lineage 37) after the repair
  const rb = resolver({ '701.36': 36, '701.37': 37 });
  const ra = resolver({ '701.36': 36, '701.37': 37 });
  const title =
    (m: Record<string, string>) =>
    (t: string): string | null =>
      m[t] ?? null;
  const titles = { before: title({ '701.36': 'Goad', '701.37': 'Exert' }), after: title({ '701.36': 'Goad', '701.37': 'Exert' }) };
  const before = 'A keyword action. See rule 701.36, “Exert.”';
  const after = 'A keyword action. See rule 701.37, “Exert.”';
  const c = compareRuleText(before, after, rb, ra, undefined, undefined, titles);
  assert.equal(textClass(c), 'correction');
  assert.equal(c.textChange, 'references');
  // pointing a correct citation elsewhere stays substantive
  const wrong = compareRuleText(after, before, rb, ra, undefined, undefined, titles);
  assert.equal(textClass(wrong), 'substantive');
  // without titles nothing can be told
  assert.equal(textClass(compareRuleText(before, after, rb, ra)), 'substantive');
});

test('a punctuation mark fixed in place is a correction, not a rewording (722.3a, 2026-08-07)', () => {
  const before = 'The controlling player makes all choices the controlled player would make, They can’t make the controlled player concede.';
  const after = 'The controlling player makes all choices the controlled player would make. They can’t make the controlled player concede.';
  assert.equal(textClass(compareRuleText(before, after, none, none)), 'correction');
  // a mark removed or added, or a word changed with it, is still a rewording
  assert.equal(textClass(compareRuleText('A player may, then, draw.', 'A player may then draw.', none, none)), 'substantive');
  assert.equal(textClass(compareRuleText('A player may draw, then discard.', 'A player may draw. Then they discard.', none, none)), 'substantive');
});
