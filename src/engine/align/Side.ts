import { normalizeText } from '../../core/normalize.js';

/** A rule as the aligner sees it, in document order. */
export interface AlignRule {
  number: string;
  text: string;
  /** normalizeText(text), if the caller has it already. */
  norm?: string;
  parent: string | null;
  kind: string;
  examples: string[];
  /**
   * hash53 of text and of its normalized form, if the caller has them (as the store does): the exact
   * passes then compare numbers, taking texts with equal hashes as equal, as the store does.
   */
  h?: number;
  normH?: number;
}

// "rule 613.6" masks as "rule #", not "#.6": the section form must not stop before a dot and digit
export const REF_MASK_RE = /\b\d{3}\.\d+[a-z]{0,2}\b|\b(rules?|sections?|parts?) \d{1,3}\b(?!\.\d)/g;
const WORD_RE = /[a-z0-9]+/g;
const APOS_RE = /[’'‘`´]/g;

/** An edition as the aligner reads it: its rules, their tree, and their words (computed on first need). */
export interface Side {
  rules: AlignRule[];
  norm: Array<string | undefined>;
  parentIdx: Int32Array;
  children: number[][];
  tokens: Array<Map<string, number> | undefined>;
  /** Document frequencies over a stride sample of the edition, computed on first need. */
  df?: Map<string, number>;
  docs: number;
  /** Words of rules aligned before, shared across alignments by a caller that aligns a chain (see TokenCache). */
  cache?: TokenCache;
}

/**
 * The words of rule texts (rules with no examples, by text hash) from the alignments of a chain's last
 * pair and the current one: consecutive editions repeat most texts, whose words are then found, not
 * read again. rotate() after each alignment keeps two pairs' worth.
 */
export class TokenCache {
  private current = new Map<number, { text: string; tokens: Map<string, number> }>();
  private previous = new Map<number, { text: string; tokens: Map<string, number> }>();

  /** The words of `text` (hash `h`), if a rule with that very text was read in this pair or the last. */
  get(h: number, text: string): Map<string, number> | undefined {
    let e = this.current.get(h);
    if (e === undefined) {
      e = this.previous.get(h);
      if (e !== undefined) this.current.set(h, e);
    }
    return e !== undefined && e.text === text ? e.tokens : undefined;
  }

  set(h: number, text: string, tokens: Map<string, number>): void {
    this.current.set(h, { text, tokens });
  }

  /** Starts the next pair: what the pair before last read is let go. */
  rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}

const SAMPLE = 200;
// The ordinals of a list's steps ("Third, the active player gets priority") are never distinctive.
export const ORDINALS = new Set(['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth']);
// An edition is aligned twice (with its predecessor and its successor): keep its derived data.
const sides = new WeakMap<AlignRule[], Side>();

export function sideOf(rules: AlignRule[]): Side {
  let s = sides.get(rules);
  if (!s || s.rules.length !== rules.length) sides.set(rules, (s = makeSide(rules)));
  return s;
}

export function sampleDf(s: Side): Map<string, number> {
  if (s.df) return s.df;
  const df = new Map<string, number>();
  const stride = Math.max(1, Math.floor(s.rules.length / SAMPLE));
  let docs = 0;
  for (let i = 0; i < s.rules.length; i += stride) {
    docs++;
    for (const w of tokensOf(s, i).keys()) df.set(w, (df.get(w) ?? 0) + 1);
  }
  s.docs = docs;
  return (s.df = df);
}

function makeSide(rules: AlignRule[]): Side {
  const byNumber = new Map<string, number>();
  rules.forEach((r, i) => byNumber.set(r.number, i));
  const parentIdx = new Int32Array(rules.length).fill(-1);
  const children: number[][] = rules.map(() => []);
  rules.forEach((r, i) => {
    const p = r.parent === null ? undefined : byNumber.get(r.parent);
    if (p !== undefined) {
      parentIdx[i] = p;
      children[p]!.push(i);
    }
  });
  return { rules, norm: rules.map((r) => r.norm), parentIdx, children, tokens: [], docs: 0 };
}

export function normOf(s: Side, i: number): string {
  let n = s.norm[i];
  if (n === undefined) s.norm[i] = n = normalizeText(s.rules[i]!.text);
  return n;
}

function addWords(t: Map<string, number>, text: string, weight: number): void {
  // rule references say nothing about which rule this is (they shift with renumbering), but
  // other numbers do: "layer 7" is not "layer 1"
  const words = text.toLowerCase().replace(APOS_RE, '').replace(REF_MASK_RE, ' ').match(WORD_RE) ?? [];
  for (const word of words) {
    const c = t.get(word);
    if (weight >= 1) t.set(word, (c ?? 0) + weight);
    else if (c === undefined) t.set(word, weight);
  }
}

// A plural and its singular are one word ("Spells" / "Spell Type"): for titles only, as plurals in
// rule text would make fewer words distinctive.
function stem(w: string): string {
  if (w.length <= 3 || w.charCodeAt(w.length - 1) !== 115 /* s */) return w;
  if (w.endsWith('ies')) return w.slice(0, -3) + 'y';
  return w.endsWith('ss') || w.endsWith('us') || w.endsWith('is') ? w : w.slice(0, -1);
}

export function tokensOf(s: Side, i: number): Map<string, number> {
  let t = s.tokens[i];
  if (t) return t;
  const r = s.rules[i]!;
  const cached = s.cache !== undefined && r.h !== undefined && r.examples.length === 0;
  t = cached ? s.cache!.get(r.h!, r.text) : undefined;
  if (t === undefined) {
    t = new Map();
    addWords(t, r.text, 1);
    // examples count, at half weight, to tell apart rules with thin text
    for (const ex of r.examples) addWords(t, ex, 0.5);
    if (cached) s.cache!.set(r.h!, r.text, t);
  }
  s.tokens[i] = t;
  return t;
}

export function hasHashes(rules: AlignRule[]): boolean {
  return rules.every((r) => r.h !== undefined && r.normH !== undefined);
}

// A heading's text: a few words, no sentence.
export function isTitle(text: string): boolean {
  return text.length <= 60 && !/[.:]\s*$/.test(text) && text.split(/\s+/).length <= 8;
}

export function sharesWord(a: Map<string, number>, b: Map<string, number>): boolean {
  const stems = new Set([...b.keys()].map(stem));
  for (const w of a.keys()) if (stems.has(stem(w))) return true;
  return false;
}

// Among split (or merge) fragments, the one sharing the longest opening with the whole (at least
// a few words), else the one keeping the number, else the one already paired (the first).
export function continuation(list: number[], prefix: (x: number) => number, sameNumber: (x: number) => boolean): number {
  let best = list[0]!;
  let bestLen = prefix(best);
  for (const x of list.slice(1)) {
    const len = prefix(x);
    if (len > bestLen + 10) [best, bestLen] = [x, len];
  }
  if (bestLen >= 30) return best;
  return list.find(sameNumber) ?? list[0]!;
}

export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  return k;
}

export function kindsCompatible(a: string, b: string): boolean {
  if (a === b) return true;
  // the 2009 rewrite turned some rules into sections and some subrules into rules
  return a !== 'ruling' && b !== 'ruling';
}
