import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { isCrText, parseCrText } from '../../ingest/parse/parseCrText.js';
import type { ParsedDocument, RuleNode } from '../../src/core/types.js';

const CORPUS = path.resolve(process.cwd(), '../shared/corpus');

function load(rel: string): string {
  return decodeBuffer(fs.readFileSync(path.join(CORPUS, rel))).text;
}

function rule(doc: ParsedDocument, number: string): RuleNode {
  const r = doc.rules.find((x) => x.number === number);
  assert.ok(r, `rule ${number} not found`);
  return r;
}

/** Independent count: numbered lines between the first "100.1" and the glossary heading. */
function independentCount(text: string, needBlankBefore: boolean): number {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^\s*100\.1\.?\s/.test(l));
  let end = lines.findIndex((l, i) => i > start && l.trim() === 'Glossary');
  if (end < 0) end = lines.length;
  let count = 0;
  for (let i = start; i < end; i++) {
    const t = lines[i]!.trim();
    if (needBlankBefore && i > start && lines[i - 1]!.trim() !== '' && !/^-+$/.test(lines[i - 1]!.trim())) continue;
    if (/^\d{3}\.\s?\d{1,3}[a-z]?\.?\s*\S/.test(t) || /^\d{3}\.[a-z]\s/.test(t) || /^\d{3}\.\s+[^\d\s]/.test(t)) count++;
  }
  // Sections before 100.1 (just "100. General") are not in the range.
  return count + 1;
}

const WRAPPED_1999 = `COMPREHENSIVE RULES                                                   04/23/99

Contents
1. The Game
     100. General
Glossary

------------------------------------------------------------------------------
1. The Game
------------------------------------------------------------------------------

100. General
------------

100.1. These Magic rules assume a game between two players. Optional rules
allow for more players but aren't discussed here.

100.2. Abilities

  100.2a A delayed ability that refers to a particular permanent still affects
  it even if the permanent changes characteristics.
  EXAMPLE: An ability reading, "At end of turn, destroy that creature" will
  destroy the permanent even if it's no longer a creature during the end of
  turn step.

------------------------------------------------------------------------------
Glossary
------------------------------------------------------------------------------

Toughness
  The number after the slash is the creature's
  toughness.

  A creature that's been dealt lethal damage
  is destroyed.

Zone
  A zone is any place that Magic cards can be during a game.

------------------------------------------------------------------------------
Credits
------------------------------------------------------------------------------

Magic: The Gathering Original Game Design: Richard Garfield

These rules are current as of April 23, 1999.
`;

test('1999-style wrapped fragment: headings, joins, examples, indented glossary', () => {
  const doc = parseCrText(WRAPPED_1999);
  assert.equal(doc.effectiveDate, '1999-04-23');
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.parent, r.kind]),
    [
      ['100', null, 'section'],
      ['100.1', '100', 'rule'],
      ['100.2', '100', 'rule'],
      ['100.2a', '100.2', 'subrule'],
    ],
  );
  assert.deepEqual(doc.parts, [{ number: '1', title: 'The Game', line: 9 }]);
  assert.equal(
    rule(doc, '100.1').text,
    "These Magic rules assume a game between two players. Optional rules allow for more players but aren't discussed here.",
  );
  assert.deepEqual(rule(doc, '100.2a').examples, [
    `An ability reading, "At end of turn, destroy that creature" will destroy the permanent even if it's no longer a creature during the end of turn step.`,
  ]);
  assert.deepEqual(
    doc.glossary.map((g) => [g.term, g.definition]),
    [
      ['Toughness', "The number after the slash is the creature's toughness.\nA creature that's been dealt lethal damage is destroyed."],
      ['Zone', 'A zone is any place that Magic cards can be during a game.'],
    ],
  );
  assert.match(doc.credits ?? '', /Richard Garfield/);
  assert.deepEqual(doc.accounting.unaccounted, []);
});

const MODERN = `Magic: The Gathering Comprehensive Rules

These rules are effective as of November 18, 2022.

Introduction

This document is the ultimate authority for Magic: The Gathering® competitive game play.

Contents

1. Game Concepts
100. General
7. Additional Rules
Glossary
Credits

1. Game Concepts

100. General

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.
Example: First example.
Example: Second example.

207.2c An ability word appears in italics at the beginning of some abilities. The ability words are adamant, addendum, and will of the council.

700.2. A spell or ability is modal if it has two or more options in a bulleted list preceded by instructions for a player to choose a number of those options, such as “Choose one —.”
• Option one.
• Option two.

704.5k If two or more permanents have the supertype world, all except the one that has had the world supertype for the shortest amount of time are put into their owners’ graveyards.

704.5m If an Aura is attached to an illegal object or player, or is not attached to an object or player, that Aura is put into its owner’s graveyard.

Glossary

Ability
1. Text on an object that explains what that object does or can do.
2. An activated or triggered ability on the stack. This kind of ability is an object.
See rule 113, “Abilities.”

Zone
A place where objects can be during a game.

Credits

Magic: The Gathering Original Game Design: Richard Garfield
`;

test('modern fragment: TOC skipped, examples, bullets, l/o skipped, multi-line glossary, ability words', () => {
  const doc = parseCrText(MODERN);
  assert.equal(doc.effectiveDate, '2022-11-18');
  assert.equal(doc.title, 'Magic: The Gathering Comprehensive Rules');
  assert.equal(doc.introduction, 'This document is the ultimate authority for Magic: The Gathering® competitive game play.');
  assert.deepEqual(
    doc.rules.map((r) => r.number),
    ['100', '100.1', '100.1a', '207.2c', '700.2', '704.5k', '704.5m'],
  );
  assert.deepEqual(rule(doc, '100.1a').examples, ['First example.', 'Second example.']);
  assert.equal(rule(doc, '700.2').text.split('\n').length, 3);
  assert.ok(rule(doc, '700.2').text.endsWith('“Choose one —.”\n• Option one.\n• Option two.'));
  assert.equal(doc.glossary[0]!.definition.split('\n').length, 3);
  assert.deepEqual(doc.abilityWords, ['adamant', 'addendum', 'will of the council']);
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.ok(!doc.warnings.some((w) => w.code === 'truncated'));
});

test('2000s fragment: indented glossary paragraphs, lines nobody claims are reported', () => {
  const text = `Magic: The Gathering Comprehensive Rules

These rules are current as of March 15, 2003.

1. The Game

100. General

100.1. These Magic rules assume a game between two players.

Glossary

Active Player
The active player is the player whose turn it is.
     Whenever both players are instructed to make choices at the same time, the active player makes all his or her choices first.
`;
  const doc = parseCrText(text);
  assert.equal(doc.effectiveDate, '2003-03-15');
  assert.equal(
    doc.glossary[0]!.definition,
    'The active player is the player whose turn it is.\nWhenever both players are instructed to make choices at the same time, the active player makes all his or her choices first.',
  );
  // With no rule open, a stray heading before the first section cannot be claimed.
  const broken = parseCrText(text.replace('1. The Game\n', '1. The Game\nPage header text\n'));
  assert.equal(broken.accounting.unaccounted.length, 1);
  assert.ok(broken.warnings.some((w) => w.code === 'unaccounted-line' && w.message.includes('Page header text')));
});

test('truncated file gets a truncated warning; non-CR text is not detected', () => {
  const full = load('mtg-cr/CR-2022-11-18.txt');
  const cut = full.slice(0, full.lastIndexOf('\n704.5m ') + 60);
  const doc = parseCrText(cut);
  assert.ok(doc.warnings.some((w) => w.code === 'truncated'));
  assert.ok(isCrText(full));
  assert.ok(isCrText(cut));
  assert.equal(isCrText('<!DOCTYPE html><html><body>404 Not Found</body></html>'), false);
  assert.equal(isCrText('Lorem ipsum dolor sit amet.\n'.repeat(100)), false);
  assert.equal(isCrText(load('mtg-cr/CR-1999-04-21.txt')), false);
});

test('1999 edition (hard-wrapped): rules, examples, glossary, index', () => {
  const text = load('mtg-cr/CR-1999-04-23.txt');
  const doc = parseCrText(text);
  assert.equal(doc.effectiveDate, '1999-04-23');
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.equal(doc.parts.length, 5);
  assert.equal(doc.parts[4]!.title, 'Additional Combat Rules');
  assert.equal(
    rule(doc, '406.2c').text,
    'A delayed ability that refers to a particular permanent still affects it even if the permanent changes characteristics.',
  );
  assert.deepEqual(rule(doc, '406.2c').examples, [
    `An ability reading, "At end of turn, destroy that creature" will destroy the permanent even if it's no longer a creature during the end of turn step.`,
  ]);
  assert.equal(rule(doc, '214.8').text, 'Enchantments');
  const toughness = doc.glossary.find((g) => g.term === 'Toughness');
  assert.equal(toughness?.definition.split('\n').length, 3);
  assert.ok(toughness?.definition.startsWith('The number after the slash printed on the lower-right corner of a creature card is the creature'));
  assert.ok(!doc.glossary.some((g) => g.term.startsWith('Abilities, 402')), 'the index is not glossary');
  assert.deepEqual(
    doc.index.find((e) => e.topic === 'Abilities'),
    { topic: 'Abilities', targets: ['402'] },
  );
  assert.equal(doc.rules.length, independentCount(text, true));
});

test('2003 edition (one line per rule, indented glossary paragraphs)', () => {
  const doc = parseCrText(load('rulesraker/2003-03-15.txt'));
  assert.equal(doc.effectiveDate, '2003-03-15');
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.deepEqual(rule(doc, '212.2a').examples, [
    '"Creature - Minotaur" means the card is a creature with the Minotaur subtype. "Creature - Goblin Wizard" means the card is a creature with the creature types Goblin and Wizard.',
  ]);
  const ap = doc.glossary.find((g) => g.term === 'Active Player');
  assert.equal(
    ap?.definition,
    'The active player is the player whose turn it is. The active player gets priority at the start of each phase or step (except for the untap and cleanup steps), after any spell or ability (except a mana ability) resolves, and after combat damage resolves.\n' +
      'Whenever both players are instructed to make choices at the same time, the active player makes all his or her choices first, then the nonactive player.',
  );
});

test('2003-10 edition (hard-wrapped PDF export) parses with all sections', () => {
  const text = load('mtg-cr/CR-2003-10-01.txt');
  const doc = parseCrText(text);
  assert.equal(doc.effectiveDate, '2003-10-01');
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.ok(doc.rules.some((r) => r.number === '300' && r.text === 'General'));
  assert.equal(doc.rules.length, independentCount(text, true));
});

test('2008 edition: keyword abilities in 502, rule counts match an independent count', () => {
  const text = load('mtg-cr/CR-2008-10-01.txt');
  const doc = parseCrText(text);
  assert.equal(doc.effectiveDate, '2008-10-01');
  assert.equal(rule(doc, '502.2').text, 'First Strike');
  assert.equal(
    rule(doc, '502.2a').text,
    'First strike is a static ability that modifies the rules for the combat damage step. (See rule 310, "Combat Damage Step.")',
  );
  assert.equal(doc.rules.length, independentCount(text, false));
  assert.deepEqual(doc.accounting.unaccounted, []);
});

test('2022-11-18 edition: 704.5k then 704.5m, four examples, glossary, counts', () => {
  const text = load('mtg-cr/CR-2022-11-18.txt');
  const doc = parseCrText(text);
  assert.equal(doc.effectiveDate, '2022-11-18');
  assert.equal(doc.parts.length, 9);
  const i = doc.rules.findIndex((r) => r.number === '704.5k');
  assert.equal(doc.rules[i + 1]!.number, '704.5m');
  assert.equal(doc.rules[i + 1]!.parent, '704.5');
  const r = rule(doc, '707.3');
  assert.equal(r.examples.length, 4);
  assert.equal(
    r.examples[1],
    'Tomoya the Revealer (a flipped flip card) becomes a copy of Nezumi Shortfang (an unflipped flip card). Tomoya’s characteristics become the characteristics of Stabwhisker the Odious, which is the flipped version of Nezumi Shortfang.',
  );
  const ability = doc.glossary.find((g) => g.term === 'Ability');
  assert.equal(
    ability?.definition,
    '1. Text on an object that explains what that object does or can do.\n2. An activated or triggered ability on the stack. This kind of ability is an object.\nSee rule 113, “Abilities,” and section 6, “Spells, Abilities, and Effects.”',
  );
  assert.equal(
    doc.glossary.find((g) => g.term === 'Tournament')?.definition,
    'An organized play activity where players compete against other players. See rule 100.6.',
  );
  assert.ok(doc.abilityWords.includes('adamant'));
  assert.ok(doc.abilityWords.includes('will of the council'));
  assert.equal(doc.rules.length, independentCount(text, false));
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.match(doc.credits ?? '', /^Magic: The Gathering Original Game Design: Richard Garfield/);
  assert.ok(!doc.warnings.some((w) => w.code === 'truncated'));
});

test('label dates vs content dates: rulesraker/2006-06-01.txt holds the 2004-06-01 edition', () => {
  assert.equal(parseCrText(load('rulesraker/2006-06-01.txt')).effectiveDate, '2004-06-01');
  assert.equal(parseCrText(load('mtg-cr/CR-2004-06-01.txt')).effectiveDate, '2004-06-01');
});

test('a rule misnumbered into a later section (the 2007 "432.2b" typo) does not swallow the next heading', () => {
  for (const rel of ['rulesraker/2007-05-01.txt', 'rulesraker/2007-07-13.txt', 'rulesraker/2007-09-07.txt']) {
    const doc = parseCrText(load(rel));
    assert.equal(rule(doc, '424').text, 'Costs', rel);
    assert.equal(rule(doc, '424').kind, 'section');
    assert.ok(!rule(doc, '423.6c').text.includes('Costs'), `${rel}: 423.6c swallowed the heading`);
    assert.equal(rule(doc, '423.2b').parent, '423.2');
    assert.ok(!doc.rules.some((r) => r.number.startsWith('432.')), `${rel}: a rule is filed in section 432`);
    assert.ok(doc.warnings.some((w) => w.code === 'malformed-number' && /432\.2b .* read as 423\.2b/.test(w.message)));
  }
});

test('a hyphen at a wrapped line joins its compound, and a suspended one keeps its space (2001–2004)', () => {
  const doc = parseCrText(load('rulesraker/2003-12-01.txt'));
  const texts = [...doc.rules.flatMap((r) => [r.text, ...r.examples]), ...doc.glossary.map((g) => g.definition)].join('\n');
  assert.deepEqual(texts.match(/\S*[A-Za-z]- (?!and\b|or\b)\S*/g) ?? [], [], 'no space after a wrapped hyphen');
  for (const w of ['Snow-Covered Plains', '"State-Based Effects', 'Assembly-Worker']) assert.ok(texts.includes(w), w);
  assert.match(rule(doc, '418.5b').examples.join(' '), /a power- and toughness-changing effect/);
  assert.doesNotMatch(texts, /power-and/);
});

test('glossary terms printed with no blank line before them, or glued to their first sense, are entries of their own', () => {
  const term = (doc: ParsedDocument, t: string) => {
    const g = doc.glossary.find((x) => x.term === t);
    assert.ok(g, `glossary term ${t} not found`);
    return g;
  };
  for (const [rel, before, after] of [
    ['mtg-cr/CR-2021-07-12.txt', 'Adventurer Card', 'Affinity'],
    ['mtg-cr/CR-2020-06-01.txt', 'Companion', 'Concede'],
    ['mtg-cr/CR-2008-02-01.txt', 'Flip Cards', 'Floor Rules'],
  ] as const) {
    const doc = parseCrText(load(rel));
    assert.ok(!term(doc, before).definition.includes(`\n${after}\n`), `${rel}: ${before} swallows ${after}`);
    assert.match(term(doc, after).definition, /^[A-Z]\S* /);
    assert.ok(doc.warnings.some((w) => w.code === 'glued-term' && w.message.includes(`"${after}"`)));
  }
  const june = parseCrText(load('mtg-cr/CR-2021-06-09.txt'));
  for (const t of ['Ability', 'Ante', 'Archenemy', 'Draw', 'Exile', 'Face Down', 'Face Up', 'Graveyard', 'Hand', 'Library', 'Loyalty']) {
    assert.match(term(june, t).definition, /^1\. \S.*\n2\. /, t);
  }
  assert.ok(!june.glossary.some((g) => /\d\. /.test(g.term)), 'no term holds a numbered sense');
});
