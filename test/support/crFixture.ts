/**
 * Small Comprehensive Rules text files in the 2026 layout, written by the tests themselves: 2026-06-19 with the
 * speed rule at 704.5z, and 2026-08-07 where a new 704.5w pushes w–z to x–aa (so the speed rule is 704.5aa) and
 * 704.5ab is added; 722.3a's comma becomes a full stop. Text only as the official .txt has it: CRLF, one rule a line.
 */

const SPEED = 'If a player controls a permanent with start your engines! and that player has no speed, that player’s speed becomes 1.';

/** The state-based actions of the June edition, a–z (l and o skipped): 24 subrules. */
function juneActions(): string[] {
  const out: string[] = [];
  for (const l of 'abcdefghijkmnpqrstuvwxy') out.push(`State-based action ${l.toUpperCase()}: a permanent of kind ${l} is put into its owner’s graveyard.`);
  out.push(SPEED);
  return out;
}

/**
 * The two editions: "2026-06-19" (speed at 704.5z) and "2026-08-07" (speed at 704.5aa, 704.5ab new, 722.3a corrected);
 * "2024-09-20" prints 702.175 twice (Offspring, then Impending) as the official Duskmourn text does.
 */
export function crFixtureText(edition: '2026-06-19' | '2026-08-07' | '2024-09-20'): string {
  const august = edition === '2026-08-07';
  const dateLine = august ? 'August 7, 2026' : edition === '2024-09-20' ? 'September 20, 2024' : 'June 19, 2026';
  const actions = juneActions();
  if (august) {
    actions.splice(20, 0, 'If a Case has no solved designation and its to solve condition is met, it becomes solved.');
    actions.push('If a permanent has a speed counter on it, that counter is removed.');
  }
  const letters = 'abcdefghijkmnpqrstuvwxyz';
  const label = (k: number): string => (k < letters.length ? letters[k]! : `a${letters[k - letters.length]!}`);
  const speedNumber = august ? '704.5aa' : '704.5z';
  const l: string[] = [
    'Magic: The Gathering Comprehensive Rules',
    '',
    `These rules are effective as of ${dateLine}.`,
    '',
    'Introduction',
    '',
    'This document is the ultimate authority for Magic: The Gathering® competitive game play.',
    '',
    'Contents',
    '',
    '1. Game Concepts',
    '7. Additional Rules',
    'Glossary',
    'Credits',
    '',
    '1. Game Concepts',
    '',
    '100. General',
    '',
    '100.1. These Magic rules apply to any Magic game with two or more players, including two-player games and multiplayer games.',
    '',
  ];
  for (const x of 'abcdefgh') l.push(`100.1${x} Game concept ${x}: players follow rule ${x} of the game.`, '');
  l.push(
    '7. Additional Rules',
    '',
    '702. Keyword Abilities',
    '',
    '702.1. Most abilities describe exactly what they do in the card’s rules text.',
    '',
    ...(edition === '2024-09-20'
      ? [
          '702.175. Offspring',
          '',
          '702.175a Offspring is a static ability found on some creature cards. See rule 702.179a.',
          '',
          '702.175. Impending',
          '',
          '702.175a Impending is a keyword that represents four abilities.',
          '',
        ]
      : []),
    '702.179. Start Your Engines!',
    '',
    `702.179a Start your engines! is a static ability. See rule ${speedNumber}.`,
    '',
    '704. State-Based Actions',
    '',
    `704.1. State-based actions are game actions that happen automatically whenever certain conditions are met. See rules 704.5x–${august ? 'aa' : 'z'}.`,
    '',
    '704.5. The state-based actions are as follows:',
    '',
  );
  actions.forEach((t, k) => l.push(`704.5${label(k)} ${t}`, ''));
  l.push(
    '722. Controlling Another Player',
    '',
    '722.3. A player may gain control of another player.',
    '',
    `722.3a The controlling player makes all choices the controlled player would make${august ? '.' : ','} They can’t make the controlled player concede.`,
    '',
    'Glossary',
    '',
    'Speed',
    `A value a player has. See rule ${speedNumber}.`,
    '',
    'State-Based Actions',
    'Game actions that happen automatically whenever certain conditions are met. See rule 704.',
    '',
    'Credits',
    '',
    'Magic: The Gathering Original Game Design: Richard Garfield',
    '',
    `These rules are effective as of ${dateLine}.`,
    '',
  );
  return l.join('\r\n');
}
