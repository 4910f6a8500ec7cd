/**
 * Abbreviations judges and players type, and the glossary terms or section titles they stand
 * for, most recent wording first (an older edition may only have the older one).
 */
const ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    sba: ['State-Based Actions'],
    sbas: ['State-Based Actions'],
    etb: ['Enters the Battlefield', 'Comes into Play'],
    etbs: ['Enters the Battlefield', 'Comes into Play'],
    ltb: ['Leaves the Battlefield', 'Leaves Play'],
    apnap: ['Active Player, Nonactive Player Order', 'APNAP Order'],
    cda: ['Characteristic-Defining Ability'],
    cdas: ['Characteristic-Defining Ability'],
    'p/t': ['Power/Toughness'],
    pt: ['Power/Toughness'],
    cmc: ['Mana Value', 'Converted Mana Cost'],
    mv: ['Mana Value', 'Converted Mana Cost'],
    ap: ['Active Player'],
    nap: ['Nonactive Player'],
    edh: ['Commander'],
  }),
);

/** What an abbreviation may stand for, or [] when the text is not one. */
export function expandAbbreviation(text: string): readonly string[] {
  return ABBREVIATIONS.get(text.trim().toLowerCase()) ?? [];
}

/** Short names players type for keywords inside a phrase ("pro red", "dt + fs"). */
const KEYWORD_ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({ pro: 'protection', dt: 'deathtouch', fs: 'first strike', ds: 'double strike', lifelinks: 'lifelink' }),
);

/** The keyword name a short word stands for, or undefined. */
export function keywordAlias(word: string): string | undefined {
  return KEYWORD_ALIASES.get(word);
}
