/**
 * What makes two glossary terms the same term (a lookup's and an edition's, two editions', a word of a text and a
 * term's word): equal keys, case, curly quotes and apostrophes folded ("Attacks and Isn’t Blocked" is "attacks and
 * isn't blocked"; "_magic_" is not "magic").
 */
export function termKey(term: string): string {
  const k = term.trim().toLowerCase();
  return /[‘’“”]/.test(k) ? k.replace(/[‘’]/g, "'").replace(/[“”]/g, '"') : k;
}
