import { normalizeText } from './normalize.js';
import { NUMBER_PATTERNS, letterIndex, lettersAt, splitNumber } from './ruleNumber.js';

/** A cross-reference found in rule, example or glossary text. */
export interface Reference {
  /** "706.10", "601.2f", "614" (a section), "9" (a part). */
  target: string;
  kind: 'rule' | 'section' | 'part';
  /** UTF-16 offsets of the mention; every target expanded from one range shares the range's span. */
  start: number;
  end: number;
}

const MAX_EXPANSION = 60;
const { inText, bareInText, rangeEndInText } = NUMBER_PATTERNS;

// "rule", "rules", "section", "sections", "part", "parts" followed by a number.
const LEAD_RE = /\b(rules?|sections?|parts?)\s+(?=\d)/gi;
// One list item: a number, optionally a range to a number, a bare number or a letter.
// A "?" stands for a dash lost in conversion, only with no space around it.
const ITEM_RE = new RegExp(String.raw`(${inText})(?:[-‐‑‒–—?](${rangeEndInText})(?![a-z]))?(?![\d/]|[a-z]|\.\d)`, 'y');
// Separators between list items; a quoted title may follow an item: rule 304, "Draw Step," and 305.
const SEP_RE = /(?:\s*,\s*(?:["“”][^"“”]{1,80}["“”]\s*,?\s*)?(?:(?:and|or|and\/or)\s+)?|\s+(?:and|or|and\/or)\s+)(?=\d)/y;
// A rule number anywhere (3-digit section, dot, rule number, optional letter), with an optional range.
const BARE_RE = new RegExp(String.raw`(?<![\d.\w])(${bareInText})(?:[-‐‑‒–—?](${rangeEndInText})(?![a-z]))?(?![\d/]|[a-z]|\.\d)`, 'g');

/** A reference target's kind by its shape: a dotted number is a rule, one digit a part, else a section. */
export function referenceKind(n: string): Reference['kind'] {
  if (n.includes('.')) return 'rule';
  return n.length === 1 ? 'part' : 'section';
}

function letterRange(from: string, to: string): string[] | null {
  const a = letterIndex(from);
  const b = letterIndex(to);
  if (a < 0 || b < 0 || b < a || b - a > MAX_EXPANSION) return null;
  const out: string[] = [];
  for (let k = a; k <= b; k++) out.push(lettersAt(k));
  return out;
}

function numRange(from: number, to: number): number[] | null {
  if (to < from || to - from > MAX_EXPANSION) return null;
  const out: number[] = [];
  for (let k = from; k <= to; k++) out.push(k);
  return out;
}

/** Expands "601.2f" + "h" / "509.1" + "3" / "800.2" + "800.4" / "212" + "215" into targets. */
export function expandRange(first: string, last: string): string[] {
  const a = splitNumber(first);
  if (!a) return [first, last];
  const { section: sec, rule: num, letters: letter } = a;
  const b = splitNumber(last);
  if (num === undefined) {
    // section range "212-215"
    const r = b?.rule === undefined && b ? numRange(Number(sec), Number(b.section)) : null;
    return r ? r.map(String) : [first, last];
  }
  if (b === null) {
    // letters: "601.2f" + "h"
    const r = letter ? letterRange(letter, last) : null;
    return r ? r.map((c) => `${sec}.${num}${c}`) : [first];
  }
  if (b && b.rule === undefined) {
    const r = letter ? null : numRange(Number(num), Number(b.section));
    return r ? r.map((k) => `${sec}.${k}`) : [first, last];
  }
  if (b && b.section === sec) {
    if (b.rule === num && letter && b.letters) {
      const r = letterRange(letter, b.letters);
      if (r) return r.map((c) => `${sec}.${num}${c}`);
    } else if (!letter && !b.letters) {
      const r = numRange(Number(num), Number(b.rule));
      if (r) return r.map((k) => `${sec}.${k}`);
    }
  }
  return [first, last];
}

function push(out: Reference[], first: string, last: string | undefined, start: number, end: number, lead: string): void {
  const targets = last === undefined ? [first] : expandRange(first, last);
  for (const t of targets) {
    let kind = referenceKind(t);
    // "rule 9" is not a thing; "section 9" and "part 9" are parts
    if (kind === 'part' && /^rule/i.test(lead)) continue;
    if (kind !== 'part' && /^part/i.test(lead) && !t.includes('.')) kind = 'part';
    out.push({ target: t, kind, start, end });
  }
}

/** Extracts every cross-reference ("rule 706.10", "rules 601.2a–h", "section 9", bare "704.5m") in document order. */
export function extractReferences(text: string): Reference[] {
  const out: Reference[] = [];
  const covered: Array<[number, number]> = [];
  LEAD_RE.lastIndex = 0;
  let lead: RegExpExecArray | null;
  while ((lead = LEAD_RE.exec(text)) !== null) {
    let pos = lead.index + lead[0].length;
    const listStart = pos;
    const word = lead[1] ?? 'rule';
    for (;;) {
      ITEM_RE.lastIndex = pos;
      const item = ITEM_RE.exec(text);
      if (!item) break;
      const first = item[1] ?? '';
      // under "rule(s)", only 3-digit sections and dotted rule numbers
      if (/^rule/i.test(word) && splitNumber(first)?.section.length !== 3) break;
      push(out, first, item[2], item.index, item.index + item[0].length, word);
      pos = item.index + item[0].length;
      SEP_RE.lastIndex = pos;
      const sep = SEP_RE.exec(text);
      if (!sep) break;
      pos = sep.index + sep[0].length;
    }
    if (pos > listStart) covered.push([listStart, pos]);
    LEAD_RE.lastIndex = Math.max(LEAD_RE.lastIndex, pos);
  }
  BARE_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BARE_RE.exec(text)) !== null) {
    const s = m.index;
    if (covered.some(([a, b]) => s >= a && s < b)) continue;
    push(out, m[1] ?? '', m[2], s, s + m[0].length, 'rule');
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  return out;
}

// A quoted title right after a mention: `rule 727, "Day and Night."` (straight or curly quotes).
// (not followed by a letter: `"Handling "Infinite" Loops"` quotes within the title)
const CITED_TITLE_RE = /^,?\s*["“]([^"”]{1,80}?)[.,]?["”](?![A-Za-z])/;
const TITLE_KEY_RE = /[^a-z0-9]+/g;

/** The title quoted right after a mention ending at `end` ("Day and Night"), or null. */
export function citedTitle(text: string, end: number): string | null {
  const m = CITED_TITLE_RE.exec(text.slice(end, end + 90));
  return m ? m[1]!.trim() : null;
}

/**
 * True when a quoted title names a target whose own text is `targetText`: most of the same words
 * (plurals, word order, a word more or less aside: the CR quotes its titles loosely). A target
 * that is no heading (a rule of many words) is given the benefit of the doubt.
 */
export function titleMatches(cited: string, targetText: string): boolean {
  if (targetText.split(/\s+/).length > 10) return true;
  const words = (s: string): Set<string> =>
    new Set(
      normalizeText(s)
        .replace(TITLE_KEY_RE, ' ')
        .split(' ')
        .filter((w) => w.length > 3)
        .map((w) => (w.endsWith('s') ? w.slice(0, -1) : w)),
    );
  const a = words(cited);
  const b = words(targetText);
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 || shared / union >= 0.5;
}
