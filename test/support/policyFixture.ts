import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { crFixtureText } from './crFixture.js';
import { tempDir } from './tempDir.js';

/** An IPG as its text export reads; `later` renumbers 2.2 to 2.3 (a new 2.2 before it) and rewords 2.1's definition. */
export function ipgText(later: boolean): string {
  return [
    'MAGIC INFRACTION PROCEDURE GUIDE',
    later ? 'Effective February 5, 2021' : 'Effective September 25, 2020',
    'INTRODUCTION',
    'The Infraction Procedure Guide provides judges the appropriate penalties.',
    '1. GENERAL PHILOSOPHY',
    'Judges are neutral arbiters.',
    '2. GAME PLAY ERRORS',
    'Game Play Errors are caused by incorrect play.',
    '2.1. Game Play Error — Missed Trigger\tPenalty',
    'Warning',
    'Definition',
    later ? 'A triggered ability triggers, but the player controlling it forgets it.' : 'A triggered ability triggers, but the player forgets it.',
    'Examples',
    'A. A player forgets an upkeep trigger.',
    'Philosophy',
    'Triggered abilities are common and invisible. Players may shortcut past them as MTR 4.2 allows, never past rule 704.5.',
    ...(later ? ['2.2. Game Play Error — Hidden Card Error\tPenalty', 'Warning', 'Definition', 'A player commits an error that cannot be verified.'] : []),
    `2.${later ? 3 : 2}. Game Play Error — Looking at Extra Cards\tPenalty`,
    'Warning',
    'Definition',
    'A player takes an action that may have allowed them to see cards they were not entitled to see.',
    'Appendix A — Penalty Quick Reference',
    'Missed Trigger: Warning',
  ].join('\n');
}

const MTR = [
  'Magic: The Gathering Tournament Rules',
  'Effective July 23, 2021',
  'Introduction',
  'This document contains the rules for sanctioned tournaments.',
  '1. Tournament Fundamentals',
  '1.1 Tournament Types',
  'Tournaments are either sanctioned or not.',
  '2. Tournament Mechanics',
  '2.1 Match Structure',
  'A match consists of a series of games.',
  '3. Tournament Rules',
  '3.1 Hidden Information',
  'Hidden information refers to the faces of cards.',
  '4. Communication',
  '4.1 Player Communication',
  'Communication between players is essential.',
  '4.2 Tournament Shortcuts',
  'A tournament shortcut is an action taken by players to skip parts of the technical play sequence.',
  'A shortcut never skips a state-based action (CR 704.5z); a missed one is handled as section 2.1 of the Infraction Procedure Guide says.',
].join('\n');

/** A JAR as its PDF's text reads (no numbers: crkb numbers its units); `later` rewords the missed trigger's remedy (1.1) and 1.2's title. */
export function jarText(later: boolean): string {
  return [
    'Judging at Regular Rules Enforcement Level (REL)',
    later ? 'Effective January 21, 2019' : 'Updated September 26, 2014',
    'Most Magic players play for fun and see a tournament as a social event.',
    'Common Issues',
    'A player forgets a triggered ability (one that uses the words “when,” “whenever,” or “at the beginning”)',
    later
      ? 'These abilities are considered missed if the player did not acknowledge them. Otherwise, put the ability on the stack unless it would be too disruptive.'
      : 'These abilities are considered missed if the player did not acknowledge them. Otherwise, use your judgement to decide if putting the trigger on the stack now would be too disruptive.',
    later ? 'A player sees a card in a library that they shouldn’t have seen' : 'A player sees a card in a library that he or she shouldn’t have seen',
    'Shuffle the card seen into the unknown portion of the library.',
    'Serious Problems',
    'Certain actions will not be tolerated under any circumstances.',
    '• Theft (including things like replacing a card in a draft with one from a player’s binder).',
  ].join('\n');
}

/** A database of two IPG editions, two JAR editions, one MTR and one CR, written by the tests (in a temporary folder). */
export async function buildPolicyDb(): Promise<{ dir: string; db: string }> {
  const dir = tempDir('crkb-policy-');
  writeFileSync(join(dir, 'ipg-2020.txt'), ipgText(false));
  writeFileSync(join(dir, 'ipg-2021.txt'), ipgText(true));
  writeFileSync(join(dir, 'mtr-2021.txt'), MTR);
  writeFileSync(join(dir, 'jar-2014.txt'), jarText(false));
  writeFileSync(join(dir, 'jar-2019.txt'), jarText(true));
  writeFileSync(join(dir, 'cr.txt'), crFixtureText('2026-06-19').replace(/\n/g, '\r\n'));
  const db = join(dir, 'kb.db');
  const report = await runIngest({ inputs: expandInputs([dir]), dbFile: db });
  assert.deepEqual(report.rejected, []);
  assert.deepEqual(
    report.editions.map((e) => `${e.family}:${e.effectiveDate}:${e.unaccountedLines}`),
    ['jar:2014-09-26:0', 'jar:2019-01-21:0', 'ipg:2020-09-25:0', 'ipg:2021-02-05:0', 'mtr:2021-07-23:0', 'cr:2026-06-19:0'],
  );
  return { dir, db };
}
