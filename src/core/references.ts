/** A cross-reference found in rule, example or glossary text. */
export interface Reference {
  /** "706.10", "601.2f", "614" (a section), "9" (a part). */
  target: string;
  kind: 'rule' | 'section' | 'part';
  /** UTF-16 offsets of the mention; every target expanded from one range shares the range's span. */
  start: number;
  end: number;
}

// Subrule letters as published: l and o are never used.
const LETTERS = 'abcdefghijkmnpqrstuvwxyz';
const MAX_EXPANSION = 60;

// "rule", "rules", "section", "sections", "part", "parts" followed by a number.
const LEAD_RE = /\b(rules?|sections?|parts?)\s+(?=\d)/gi;
// One list item: a number, optionally a range to a number, a bare number or a letter.
// A "?" stands for a dash lost in conversion, only with no space around it.
const ITEM_RE =
  /(\d{1,3}(?:\.\d+[a-z]?)?)(?:[-‐‑‒–—?](\d{1,3}\.\d+[a-z]?|\d{1,3}|[a-z])(?![a-z]))?(?![\d/]|[a-z]|\.\d)/y;
// Separators between list items; a quoted title may follow an item: rule 304, "Draw Step," and 305.
const SEP_RE = /(?:\s*,\s*(?:["“”][^"“”]{1,80}["“”]\s*,?\s*)?(?:(?:and|or|and\/or)\s+)?|\s+(?:and|or|and\/or)\s+)(?=\d)/y;
// A rule number anywhere (3-digit section, dot, rule number, optional letter), with an optional range.
const BARE_RE =
  /(?<![\d.\w])([1-9]\d{2}\.\d+[a-z]?)(?:[-‐‑‒–—?](\d{1,3}\.\d+[a-z]?|\d{1,3}|[a-z])(?![a-z]))?(?![\d/]|[a-z]|\.\d)/g;

function kindOf(n: string): Reference['kind'] {
  if (n.includes('.')) return 'rule';
  return n.length === 1 ? 'part' : 'section';
}

function letterRange(from: string, to: string): string[] | null {
  const a = LETTERS.indexOf(from);
  const b = LETTERS.indexOf(to);
  if (a < 0 || b < 0 || b < a || b - a > MAX_EXPANSION) return null;
  return LETTERS.slice(a, b + 1).split('');
}

function numRange(from: number, to: number): number[] | null {
  if (to < from || to - from > MAX_EXPANSION) return null;
  const out: number[] = [];
  for (let k = from; k <= to; k++) out.push(k);
  return out;
}

/** Expands "601.2f" + "h" / "509.1" + "3" / "800.2" + "800.4" / "212" + "215" into targets. */
export function expandRange(first: string, last: string): string[] {
  const m = /^(\d{1,3})(?:\.(\d+)([a-z]?))?$/.exec(first);
  if (!m) return [first, last];
  const [, sec, num, letter] = m;
  if (num === undefined) {
    // section range "212-215"
    if (/^\d{1,3}$/.test(last)) {
      const r = numRange(Number(sec), Number(last));
      if (r) return r.map(String);
    }
    return [first, last];
  }
  if (/^[a-z]$/.test(last)) {
    if (letter) {
      const r = letterRange(letter, last);
      if (r) return r.map((c) => `${sec}.${num}${c}`);
    }
    return [first];
  }
  if (/^\d+$/.test(last)) {
    if (!letter) {
      const r = numRange(Number(num), Number(last));
      if (r) return r.map((k) => `${sec}.${k}`);
    }
    return [first, last];
  }
  const n = /^(\d{1,3})\.(\d+)([a-z]?)$/.exec(last);
  if (n && n[1] === sec) {
    if (n[2] === num && letter && n[3]) {
      const r = letterRange(letter, n[3]);
      if (r) return r.map((c) => `${sec}.${num}${c}`);
    } else if (!letter && !n[3]) {
      const r = numRange(Number(num), Number(n[2]));
      if (r) return r.map((k) => `${sec}.${k}`);
    }
  }
  return [first, last];
}

function push(out: Reference[], first: string, last: string | undefined, start: number, end: number, lead: string): void {
  const targets = last === undefined ? [first] : expandRange(first, last);
  for (const t of targets) {
    let kind = kindOf(t);
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
      if (/^rule/i.test(word) && !/^\d{3}(?:\.|$)/.test(first)) break;
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
