/**
 * Rule numbers of the Comprehensive Rules: parts ("7"), sections ("702"), rules ("702.19") and
 * subrules ("702.19b", "702.1aa"). Subrule letters skip l and o. The one place that reads,
 * compares and formats them.
 */

/** Subrule letters in order: l and o are never used. */
export const LETTERS = 'abcdefghijkmnpqrstuvwxyz';

/** A part, section, rule or subrule number: "7", "702", "702.19", "702.19b". */
export const RULE_NUMBER_RE = /^\d{1,3}(?:\.\d{1,3}[a-z]{0,2})?$/;

/** What a rule number names. */
export type NumberLevel = 'part' | 'section' | 'rule' | 'subrule';

/** The level of a well-formed number, or null. */
export function numberLevel(n: string): NumberLevel | null {
  if (!RULE_NUMBER_RE.test(n)) return null;
  if (!n.includes('.')) return n.length === 1 ? 'part' : 'section';
  return /[a-z]$/.test(n) ? 'subrule' : 'rule';
}

/** Normalizes a typed number ("702.19B.", " 702.19 ") or returns null when it is not one. */
export function normalizeNumber(text: string): string | null {
  const t = text.trim().replace(/\.$/, '').toLowerCase();
  return RULE_NUMBER_RE.test(t) ? t : null;
}

/** Sort key of a rule number: section, rule, letters (so ranges and neighbours compare correctly). */
export function numberKey(n: string): [number, number, string] {
  const m = /^(\d+)(?:\.(\d+)([a-z]*))?$/.exec(n);
  if (!m) return [Number.MAX_SAFE_INTEGER, 0, n];
  return [Number(m[1]), m[2] === undefined ? -1 : Number(m[2]), m[3] ?? ''];
}

/** Compares two rule numbers in document order (102.9 < 102.10, 704.5k < 704.5m, 702.1z < 702.1aa). */
export function compareNumbers(a: string, b: string): number {
  const ka = numberKey(a);
  const kb = numberKey(b);
  if (ka[0] !== kb[0]) return ka[0] - kb[0];
  if (ka[1] !== kb[1]) return ka[1] - kb[1];
  if (ka[2].length !== kb[2].length) return ka[2].length - kb[2].length;
  return ka[2] < kb[2] ? -1 : ka[2] > kb[2] ? 1 : 0;
}

/** The section a number belongs to: "702" for "702.19b", "E" for the Rulings Summaries' "E.13". */
export function sectionOf(number: string): string {
  // (no regex: called once per change of a diff)
  if (isDigit(number, 0) && isDigit(number, 1) && isDigit(number, 2)) return number.slice(0, 3);
  const dot = number.indexOf('.');
  return dot < 0 ? number : number.slice(0, dot);
}

const isDigit = (s: string, k: number): boolean => {
  const c = s.charCodeAt(k);
  return c >= 48 && c <= 57;
};

/** True when `number` lies in `scope`: a part ("7"), a section ("702") or a rule and its subrules ("702.19"). */
export function inScope(number: string, scope: string): boolean {
  if (/^\d$/.test(scope)) return number.startsWith(scope) && /^\d{3}/.test(number);
  if (number === scope) return true;
  if (!number.startsWith(scope)) return false;
  const next = number.charAt(scope.length);
  return next === '.' || (/^\d+\.\d+$/.test(scope) && /[a-z]/.test(next));
}

/** A rule's published label: "702.19." for rules and sections, "702.19b" for subrules. */
export function ruleLabel(r: { number: string }): string {
  return /[a-z]$/.test(r.number) ? r.number : `${r.number}.`;
}
