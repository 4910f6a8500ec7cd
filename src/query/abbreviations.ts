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
