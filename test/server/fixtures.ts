import type { GlossaryEntry, ParsedDocument, RuleNode } from '../../src/core/types.js';
import { openWritableDb, type Db } from '../../src/db/openDb.js';
import { storeDerived } from '../../ingest/store/storeDerived.js';
import { Writer } from '../../ingest/store/Writer.js';

/** [number, text, examples?] */
type R = [string, string, string[]?];

function parentOf(n: string): string | null {
  const m = /^(\d+)\.(\d+)([a-z]+)?$/.exec(n);
  if (!m) return null;
  return m[3] ? `${m[1]}.${m[2]}` : m[1]!;
}

/** A small edition document from rules ([number, text, examples?]) and glossary entries. */
export function doc(date: string, rules: R[], glossary: Array<[string, string]>): ParsedDocument {
  const nodes: RuleNode[] = rules.map(([number, text, examples], i) => ({
    number,
    parent: parentOf(number),
    kind: number.includes('.') ? (/[a-z]$/.test(number) ? 'subrule' : 'rule') : 'section',
    text,
    examples: examples ?? [],
    line: i + 1,
  }));
  const g: GlossaryEntry[] = glossary.map(([term, definition], i) => ({ term, definition, line: 1000 + i }));
  return {
    family: 'cr',
    format: 'cr-text',
    effectiveDate: date,
    complete: true,
    title: 'Magic: The Gathering Comprehensive Rules',
    introduction: null,
    credits: null,
    parts: [
      { number: '1', title: 'Game Concepts', line: 1 },
      { number: '7', title: 'Additional Rules', line: 2 },
    ],
    rules: nodes,
    glossary: g,
    abilityWords: ['landfall'],
    index: [],
    accounting: { bodyLines: 0, accounted: 0, unaccounted: [] },
    warnings: [],
  };
}

const TRAMPLE_B = 'The controller of an attacking creature with trample first assigns damage to the creature(s) blocking it. See rules 510.1c-d.';

/** Rules shared by the modern fixture editions. */
function modern(copySection: string, withDie: boolean, long = false): R[] {
  const out: R[] = [
    ['100', 'General'],
    ['100.1', 'These Magic rules apply to any Magic game with two or more players.'],
    ['100.1a', 'A two-player game is a game that begins with only two players.', ['A game of one player against one opponent.']],
    ['510', 'Combat Damage Step'],
    ['510.1', 'First, the active player announces how each attacking creature assigns its combat damage.'],
    ['510.1c', 'A blocked creature assigns its combat damage to the creatures blocking it.'],
    ['510.1d', 'A blocking creature assigns combat damage to the creatures it is blocking.'],
    ['601', 'Casting Spells'],
    ['601.2', 'To cast a spell is to take it from where it is and put it on the stack.'],
  ];
  for (const l of 'abcdefgh') out.push([`601.2${l}`, `Casting step ${l}: the player does thing ${l}.`]);
  out.push(
    ['700', 'General'],
    ['700.2', 'A spell or ability is modal if it has two or more options.'],
    ['700.2g', `A copy of a modal spell copies the modes chosen for it. See rule ${copySection}.10.`],
    ['700.4', 'The term dies means "is put into a graveyard from the battlefield."'],
    ['700.5', "A player's devotion to a color is the number of mana symbols of that color among permanents."],
    ['701', 'Keyword Actions'],
    ['701.1', "Most actions described in a card's rules text use the standard English definitions of the verbs within."],
    ['701.2', 'Activate'],
    ['701.2a', 'To activate an activated ability is to put it onto the stack and pay its costs, as described in rule 602.'],
    ['702', 'Keyword Abilities'],
    ['702.1', "Most abilities describe exactly what they do in the card's rules text."],
    ['702.19', 'Trample'],
    ['702.19a', "Trample is a static ability that modifies the rules for assigning an attacking creature's combat damage."],
    [
      '702.19b',
      TRAMPLE_B,
      [
        'A 2/2 creature with trample is blocked by a 1/1 creature. It assigns 1 damage to the blocker and 1 to the player.',
        'A creature with trample and deathtouch may assign 1 damage to each blocker; see rule 999.9.',
      ],
    ],
    ['702.19c', 'If all the creatures blocking it are removed from combat, the creature with trample assigns all its damage to the player.'],
    ['704', 'State-Based Actions'],
    ['704.5', 'The state-based actions are as follows:'],
    ['704.5k', 'If a player controls two or more legendary permanents with the same name, that player chooses one.'],
    ['704.5m', 'If two or more permanents have the supertype world, all except the newest are put into graveyards.'],
  );
  if (withDie) {
    out.push(['706', 'Rolling a Die'], ['706.1', 'To roll a die is to generate a random number.']);
  }
  out.push(
    [copySection, 'Copying Objects'],
    [`${copySection}.1`, 'Some objects become or turn another object into a copy of a spell, permanent, or card.'],
    [`${copySection}.10`, 'To copy a spell, activated ability, or triggered ability means to put a copy of it onto the stack.'],
  );
  if (long) {
    // 24 long subrules, so a lookup of the copy rule exceeds a chat message
    for (const l of 'abcdefghijkmnpqrstuvwxyz') {
      out.push([`${copySection}.10${l}`, `Copy detail ${l}: ${'a copy keeps the copiable values of the original object and nothing else. '.repeat(2).trim()}`]);
    }
  }
  return out;
}

const GLOSSARY: Array<[string, string]> = [
  ['Activate', 'To put an activated ability onto the stack and pay its costs. See rule 602.'],
  ['Devotion', 'A number that represents how much of a color a player has. See rule 700.5.'],
  ['Dies', 'A creature or planeswalker "dies" if it is put into a graveyard from the battlefield. See rule 700.4.'],
  ['Trample', 'A keyword ability that lets a creature deal excess combat damage. See rule 702.19.'],
];

/** Fixture editions: 2008-10-01 (old numbering), 2021-06-18 (706 Copying) and 2021-07-23 (706 Rolling a Die, 707 Copying). */
export const FIXTURE_DATES = ['2008-10-01', '2021-06-18', '2021-07-23'] as const;

/** Builds the fixture documents. */
export function fixtureDocs(): ParsedDocument[] {
  const old = doc(
    '2008-10-01',
    [
      ['500', 'General'],
      ['500.1', 'Some rules govern abilities.'],
      ['501', 'Keyword Actions'],
      ['501.1', 'Activate'],
      ['502', 'Keyword Abilities'],
      ['502.9', 'Trample'],
      ['502.9a', 'Trample is a static ability that modifies the rules for assigning combat damage.'],
      ['502.9b', 'If an attacking creature with trample is blocked, its controller assigns lethal damage to the blockers. See rule 500.1.'],
    ],
    [['Trample', 'See rule 502.9.']],
  );
  return [old, doc('2021-06-18', modern('706', false, true), GLOSSARY), doc('2021-07-23', modern('707', true, true), GLOSSARY)];
}

// Mentions like "rule 702.19", "rules 510.1c-d" (letter ranges expanded), "rule 602".
const REF_RE = /\brules? (\d{3}(?:\.\d+[a-z]?)?)(?:-([a-z]))?/g;

/** Fills text_refs for every stored text, with a simple extractor of our own. */
export function fillRefs(db: Db): void {
  const ins = db.prepare('INSERT OR REPLACE INTO text_refs (text_id, ord, target, kind, start, "end") VALUES (?, ?, ?, ?, ?, ?)');
  for (const t of db.prepare('SELECT id, body FROM texts').all() as Array<{ id: number; body: string }>) {
    let ord = 0;
    for (const m of t.body.matchAll(REF_RE)) {
      const first = m[1]!;
      const targets = [first];
      if (m[2]) {
        const letters = 'abcdefghijkmnpqrstuvwxyz';
        const from = letters.indexOf(first.slice(-1));
        const to = letters.indexOf(m[2]);
        for (let i = from + 1; i <= to; i++) targets.push(first.slice(0, -1) + letters[i]);
      }
      for (const target of targets) {
        const kind = target.includes('.') ? 'rule' : 'section';
        ins.run(t.id, ord++, target, kind, m.index, m.index + m[0].length);
      }
    }
  }
}

/**
 * A fresh in-memory (or file) database holding the fixture editions (or the given ones) with references.
 * `derived`: references and lineage as ingest stores them (diffs and histories follow renumbering).
 */
export function fixtureDb(file = ':memory:', docs: ParsedDocument[] = fixtureDocs(), opts: { derived?: boolean } = {}): Db {
  const db = openWritableDb(file);
  const w = new Writer(db);
  db.transaction(() => {
    for (const d of docs) {
      w.storeEdition(
        {
          family: 'cr',
          effectiveDate: d.effectiveDate!,
          official: true,
          label: '',
          setCode: null,
          setName: null,
          warnings: [],
        },
        d,
      );
    }
    if (opts.derived) storeDerived(w);
    else fillRefs(db);
  })();
  return db;
}

/** The fixture database with lineage (and the ingest's own references) derived, as an ingest stores them. */
export function fixtureDbWithLineage(file = ':memory:'): Db {
  return fixtureDb(file, fixtureDocs(), { derived: true });
}
