/**
 * Rule numbers of the Comprehensive Rules: parts ("7"), sections ("702"), rules ("702.19") and
 * subrules ("702.19b", "704.5aa"). The one place that reads, compares and formats them, and the
 * source of every rule-number pattern.
 */

/** Subrule letters in order: l and o are never used. */
export const LETTERS = 'abcdefghijkmnpqrstuvwxyz';

/** Sources of the rule-number patterns: a number as typed (with a prefix), the end of a range, numbers in rule text. */
export const NUMBER_PATTERNS = {
  /** A part, section, rule or subrule number: "7", "702", "702.19", "704.5aa". */
  number: String.raw`\d{1,3}(?:\.\d{1,3}[a-z]{0,2})?`,
  /** A number, capturing section, rule and letters: "702", "702.19", "704.5aa". */
  parts: String.raw`(\d{1,3})(?:\.(\d{1,3})([a-z]{1,2})?)?`,
  /** How people write "rule" before a number: "CR 702.19b", "comp. rules 100", "rule 702", "r. 702", "§702", "#702". */
  prefix: String.raw`(?:(?:(?:cr|comp\.?\s*rules?|rules?|r\.?)\s*[:#]?|§|#)\s*)?`,
  /** The end of a typed range: a number (capturing section, rule, letters), a rule number ("601.2-4") or letters ("601.2a-h"). */
  rangeEnd: String.raw`(?:(\d{1,3})\.(\d{1,3})([a-z]{1,2})?|(\d{1,3})|([a-z]{1,2}))`,
  /** A number as rule text writes it, after "rule", "section" or "part": "706.10", "601.2f", "614", "9". */
  inText: String.raw`\d{1,3}(?:\.\d+[a-z]{0,2})?`,
  /** A number in rule text with no word before it: a rule of a three-digit section ("704.5m"). */
  bareInText: String.raw`[1-9]\d{2}\.\d+[a-z]{0,2}`,
  /** The end of a range in rule text: a number, a rule number or letters ("601.2a–h"). */
  rangeEndInText: String.raw`\d{1,3}\.\d+[a-z]{0,2}|\d{1,3}|[a-z]{1,2}`,
} as const;

/** A part, section, rule or subrule number: "7", "702", "702.19", "702.19b". */
export const RULE_NUMBER_RE = new RegExp(`^${NUMBER_PATTERNS.number}$`);

/** A scope of a diff or a list: a part ("7"), a section ("702"), a rule ("702.19") or a subrule. */
export const SCOPE_RE = /^\d(?:\d\d(?:\.\d{1,3}[a-z]{0,2})?)?$/;

/** A number of the Rulings Summaries (1999): "E.13", "E.13.2", "E.13.Ruling.3". */
export const RULINGS_NUMBER_RE = /^[A-Z]\.\d+(?:\.(?:Ruling\.)?\d+)?$/;

const TYPED_NUMBER_RE = new RegExp(`^${NUMBER_PATTERNS.prefix}${NUMBER_PATTERNS.parts}\\.?$`, 'i');
/** The "CR"/"rule" prefix typed before a number. */
export const PREFIX_RE = new RegExp(`^${NUMBER_PATTERNS.prefix}`, 'i');
const SPLIT_RE = /^(\d+)(?:\.(\d+)([a-z]*))?$/;

/** What a rule number names. */
export type NumberLevel = 'part' | 'section' | 'rule' | 'subrule';

/** The level of a well-formed number, or null. */
export function numberLevel(n: string): NumberLevel | null {
  if (!RULE_NUMBER_RE.test(n)) return null;
  if (!n.includes('.')) return n.length === 1 ? 'part' : 'section';
  // (a letter last: a subrule; a character code, not a regex, on this path of every rule link)
  const last = n.charCodeAt(n.length - 1);
  return last >= 97 && last <= 122 ? 'subrule' : 'rule';
}

/** A number from its parts: section, rule (none for a part or section) and letters. */
export function joinNumber(section: string, rule: string | undefined, letters: string | undefined): string {
  return rule === undefined ? section : `${section}.${rule}${(letters ?? '').toLowerCase()}`;
}

/** The number a short citation anchor names, the form other tools link with: "R70219b" → "702.19b", "R7045aa" → "704.5aa", "R702" → "702"; else null. */
export function numberOfShortAnchor(anchor: string): string | null {
  const m = /^R(\d{3})(\d*)([a-z]{0,2})$/.exec(anchor);
  return m ? joinNumber(m[1]!, m[2] || undefined, m[3]) : null;
}

/** A bot command's sigil before a query ("!cr 702.19b", "/cr", "?rule"), quotes and brackets around it, trailing punctuation. */
const WRAPPING_RE = /^(?:[!/?.$]+(?=[a-z\d]))?["'“‘([{<]*\s*|\s*["'”’)\]}>.,;:!?]*$/gi;
/** A comma or spaces where the dot of a number goes: "702,19b", "702 . 19b". */
const LOOSE_DOT_RE = /\b(\d{3})(?:,|\s*\.\s*)(\d{1,3}[a-z]{0,2})\b/gi;

/** A typed query with a pasted number tidied: sigils, quotes, brackets and trailing punctuation gone, "702,19b" read as "702.19b". */
export function tidyTypedNumbers(text: string): string {
  return text.replace(WRAPPING_RE, '').replace(LOOSE_DOT_RE, '$1.$2');
}

/** Reads a typed number ("702.19B.", " CR 702.19b ", "rule 702.19", "§ 100") as the number it names, or null. */
export function normalizeNumber(text: string): string | null {
  // a number already as the rules print it (what generated clients and links send) reads as itself
  if (RULE_NUMBER_RE.test(text)) return text;
  const m = TYPED_NUMBER_RE.exec(text.normalize('NFC').replace(/\s+/g, ' ').trim());
  return m ? joinNumber(m[1]!, m[2], m[3]) : null;
}

/** A number's section, rule (undefined for a part or section) and letters ("" when none), or null. */
export function splitNumber(n: string): { section: string; rule: string | undefined; letters: string } | null {
  const m = SPLIT_RE.exec(n);
  return m ? { section: m[1]!, rule: m[2], letters: m[3] ?? '' } : null;
}

/** How deep a number sits: 1 for a part or section, 2 for a rule, 3 for a subrule. */
export function numberDepth(n: string): number {
  const p = splitNumber(n);
  return p === null ? 1 : 1 + (p.rule === undefined ? 0 : 1) + (p.letters ? 1 : 0);
}

/** The position of subrule letters in order (a = 0 … z, then aa, ab …, l and o skipped), or -1. */
export function letterIndex(letters: string): number {
  if (letters.length === 1) return LETTERS.indexOf(letters);
  if (letters.length !== 2) return -1;
  const a = LETTERS.indexOf(letters[0]!);
  const b = LETTERS.indexOf(letters[1]!);
  return a < 0 || b < 0 ? -1 : LETTERS.length * (a + 1) + b;
}

/** The subrule letters at a position (the inverse of letterIndex). */
export function lettersAt(k: number): string {
  const n = LETTERS.length;
  return k < n ? LETTERS[k]! : `${LETTERS[Math.floor(k / n) - 1]!}${LETTERS[k % n]!}`;
}

/** The number a number sits under: "702.19" for "702.19b", "702" for "702.19", "7" for "702"; null for a part. */
export function parentNumber(n: string): string | null {
  const p = splitNumber(n);
  if (!p) return null;
  if (p.rule === undefined) return p.section.length > 1 ? p.section.charAt(0) : null;
  return p.letters ? `${p.section}.${p.rule}` : p.section;
}

/** Sort key of a rule number: section, rule, letters (so ranges and neighbours compare correctly). */
export function numberKey(n: string): [number, number, string] {
  const p = splitNumber(n);
  if (!p) return [Number.MAX_SAFE_INTEGER, 0, n];
  return [Number(p.section), p.rule === undefined ? -1 : Number(p.rule), p.letters];
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
