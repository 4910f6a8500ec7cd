import { compareNumbers, numberKey } from './ruleNumber.js';

// Rows of the distance table, reused by every call (a typo search compares a word with thousands).
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/** Optimal-string-alignment (restricted Damerau-Levenshtein) distance, capped: returns max+1 once exceeded. */
export function editDistance(a: string, b: string, max = 8): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rows[0]!.length <= n) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  let [prev2, prev, cur] = rows as [Int32Array, Int32Array, Int32Array];
  const over = max + 1;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    // only cells within `max` of the diagonal can stay within `max`; the rest count as over it
    const lo = Math.max(1, i - max);
    const hi = Math.min(n, i + max);
    cur[0] = i;
    if (lo > 1) cur[lo - 1] = over;
    let rowMin = lo === 1 ? i : over;
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = prev[j - 1]! + (ai === bj ? 0 : 1);
      const up = prev[j]! + 1;
      if (up < v) v = up;
      const left = cur[j - 1]! + 1;
      if (left < v) v = left;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        const t = prev2[j - 2]! + 1;
        if (t < v) v = t;
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < n) cur[hi + 1] = over;
    if (rowMin > max) return over;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n]!, over);
}

/** Every distinct word of three letters or more in some texts, lower-cased: what a misspelt word is compared with. */
export function wordsOf(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of texts) addWords(out, t);
  return out;
}

/** ASCII and punctuation the rules print (no letter or digit, and lower-casing leaves each as it is). */
const PLAIN = /^[\t\n\r -~\u00a0\u00b7\u00d7\u2000-\u206f\u2212]*$/;

/** Adds the words of a text to a set (as wordsOf, in the order they come). */
export function addWords(out: Set<string>, text: string): void {
  // a plain text's words are its ASCII letters and digits: lower-cased at once, not word by word
  if (PLAIN.test(text)) for (const w of text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) out.add(w);
  else for (const w of text.match(/[\p{L}\p{N}]{3,}/gu) ?? []) out.add(w.toLowerCase());
}

/** A candidate and how far it is from the query. */
export interface Suggestion {
  value: string;
  distance: number;
}

/**
 * Candidates closest to a term (case-insensitive), nearest first. A candidate
 * the term is a prefix of counts as distance 1.
 */
export function closestTerms(term: string, candidates: readonly string[], limit = 5, max = 3): Suggestion[] {
  const t = term.toLowerCase();
  const seen = new Set<string>();
  const out: Suggestion[] = [];
  for (const c of candidates) {
    const lc = c.toLowerCase();
    // too long or too short to be within `max`, unless the term begins it
    if (Math.abs(lc.length - t.length) > max && !(t.length >= 4 && lc.startsWith(t))) continue;
    if (seen.has(lc)) continue;
    seen.add(lc);
    let d = editDistance(t, lc, max);
    if (d > 1 && t.length >= 4 && lc.startsWith(t)) d = 1;
    if (d <= max) out.push({ value: c, distance: d });
  }
  out.sort((a, b) => a.distance - b.distance || a.value.length - b.value.length || a.value.localeCompare(b.value));
  return out.slice(0, limit);
}

/** How far a term may be from a candidate to count as a misspelling of it. */
export function typoBudget(term: string): number {
  return term.length <= 4 ? 1 : term.length <= 8 ? 2 : 3;
}

/** Rule numbers nearest to an unknown number: close spellings first, then numeric neighbours in its section. */
export function nearestNumbers(target: string, numbers: readonly string[], limit = 5): string[] {
  const scored = numbers.map((n) => ({ n, d: editDistance(target, n, 3) }));
  const close = scored
    .filter((s) => s.d <= 1)
    .sort((a, b) => a.d - b.d || Math.abs(a.n.length - target.length) - Math.abs(b.n.length - target.length) || compareNumbers(a.n, b.n));
  const out = close.map((s) => s.n).slice(0, limit);
  if (out.length < limit) {
    // numeric neighbours in the same section, around where the number would sit
    const [sec] = numberKey(target);
    const sameSection = numbers.filter((n) => numberKey(n)[0] === sec).sort(compareNumbers);
    const pos = sameSection.findIndex((n) => compareNumbers(n, target) > 0);
    const at = pos < 0 ? sameSection.length : pos;
    const around = [...sameSection.slice(Math.max(0, at - 2), at).reverse(), ...sameSection.slice(at, at + 2)];
    for (const n of around) if (out.length < limit && !out.includes(n)) out.push(n);
  }
  return out;
}
