import { normalizeText } from '../core/normalize.js';
import { citedTitle, extractReferences, titleMatches } from '../core/references.js';
import type { Reference } from '../core/references.js';

/** How a rule's text changed between two editions. */
export type TextChange = 'none' | 'references' | 'substantive';

/**
 * The class a diff reports for a text change (`textChange` of `crkb diff --json`): TextChange
 * with typography-only changes apart from 'none' (no change at all).
 */
export type TextClass = 'none' | 'typography' | 'references' | 'correction' | 'substantive';

/** The reported class of a comparison. */
export function textClass(c: Pick<RuleTextComparison, 'textChange' | 'typography'> & { correction?: boolean }): TextClass {
  if (c.correction) return 'correction';
  return c.textChange === 'none' && c.typography ? 'typography' : c.textChange;
}

/** The title (text) of a reference target in one edition, or null when it has none. */
export type TitleOf = (target: string) => string | null;

/** Resolves a reference target ("706.10") in one edition to a lineage id, or null when dangling. */
export type ResolveLineage = (target: string) => number | null;

export interface RuleTextComparison {
  textChange: TextChange;
  /**
   * True when the texts differ only in typography (quotes, dashes, ™, italics markers, spacing):
   * `textChange` is then 'none' but the rule still shows up in a diff.
   */
  typography: boolean;
  /**
   * True when only reference numbers changed and each changed one repairs a stale citation (its
   * quoted title now names its target): `textChange` is then 'references'; or when a punctuation mark
   * was fixed in place (a comma become a full stop): `textChange` is then 'none', `typography` true.
   */
  correction?: boolean;
}

// Lowercase letters survive normalizeText unchanged and never occur in rule text like this.
const MASK = ' zqxrefzqx ';

interface Mention {
  start: number;
  end: number;
  targets: string[];
}

// References whose spans overlap (the targets of one range) form one mention. `refs` are in text
// order, as extractReferences returns them and the store keeps them.
function mentions(refs: Reference[]): Mention[] {
  const out: Mention[] = [];
  let last: Mention | null = null;
  for (let k = 0; k < refs.length; k++) {
    const r = refs[k]!;
    if (last !== null && r.start < last.end) {
      last.targets.push(r.target);
      if (r.end > last.end) last.end = r.end;
    } else out.push((last = { start: r.start, end: r.end, targets: [r.target] }));
  }
  return out;
}

// The text with every mention replaced by MASK (not yet normalized).
function masked(text: string, ms: Mention[]): string {
  let out = '';
  let pos = 0;
  for (const m of ms) {
    out += text.slice(pos, m.start) + MASK;
    pos = m.end;
  }
  return out + text.slice(pos);
}

const SUBSTANTIVE: RuleTextComparison = { textChange: 'substantive', typography: false };

/** A text as the differ compares it, with its stored references and normalized-text hash when read. */
export interface DiffText {
  text: string;
  /** References of `text`; extracted when absent. */
  refs?: Reference[];
  /** Hash of the normalized text (texts.norm_h): different hashes mean the texts differ beyond typography. */
  normHash?: number;
}

/** compareRuleText of two diffed texts: compareReworded when their hashes say they differ beyond typography. */
export function compareTexts(
  b: DiffText,
  a: DiffText,
  resolveBefore: ResolveLineage,
  resolveAfter: ResolveLineage,
  titles?: { before: TitleOf; after: TitleOf },
): RuleTextComparison {
  // (compareRuleText's defaults would extract references even for equal texts)
  if (b.text === a.text) return { textChange: 'none', typography: false };
  return b.normHash !== undefined && a.normHash !== undefined && b.normHash !== a.normHash && b.refs && a.refs
    ? compareReworded(b.text, a.text, resolveBefore, resolveAfter, b.refs, a.refs, titles)
    : compareRuleText(b.text, a.text, resolveBefore, resolveAfter, b.refs, a.refs, titles);
}

/**
 * Reference-aware comparison of one rule's text in two editions. A change made only of
 * reference numbers, each old and new reference resolving to the same lineage, is 'references';
 * a reference that now resolves to another rule, or any other wording change, is 'substantive'.
 * Typography-only differences are 'none' with `typography` set. References given are in text order.
 */
export function compareRuleText(
  beforeText: string,
  afterText: string,
  resolveBefore: ResolveLineage,
  resolveAfter: ResolveLineage,
  beforeRefs: Reference[] = extractReferences(beforeText),
  afterRefs: Reference[] = extractReferences(afterText),
  titles?: { before: TitleOf; after: TitleOf },
): RuleTextComparison {
  if (beforeText === afterText) return { textChange: 'none', typography: false };
  if (!wordsDiffer(beforeText, afterText) && (normalizeText(beforeText) === normalizeText(afterText) || sameTypography(beforeText, afterText))) {
    // same wording, but a same-numbered reference may now point at another rule
    const same = sameTargets(mentions(beforeRefs), mentions(afterRefs), resolveBefore, resolveAfter);
    return { textChange: same ? 'none' : 'substantive', typography: true };
  }
  return compareReworded(beforeText, afterText, resolveBefore, resolveAfter, beforeRefs, afterRefs, titles);
}

/**
 * compareRuleText for two texts whose normalized forms are known to differ (say, their stored
 * hashes differ): the same verdict, without normalizing the whole texts, and normalizing nothing
 * when the words around the references are unchanged.
 */
function compareReworded(
  beforeText: string,
  afterText: string,
  resolveBefore: ResolveLineage,
  resolveAfter: ResolveLineage,
  beforeRefs: Reference[],
  afterRefs: Reference[],
  titles?: { before: TitleOf; after: TitleOf },
): RuleTextComparison {
  const mb = mentions(beforeRefs);
  const ma = mentions(afterRefs);
  // with no mentions the masked texts are the texts themselves, whose normalized forms differ
  if (mb.length === ma.length && mb.length > 0) {
    const xb = masked(beforeText, mb);
    const xa = masked(afterText, ma);
    if (xb === xa || (!wordsDiffer(xb, xa) && normalizeText(xb) === normalizeText(xa))) {
      if (sameTargets(mb, ma, resolveBefore, resolveAfter)) return { textChange: 'references', typography: false };
      if (titles && corrections(beforeText, afterText, mb, ma, resolveBefore, resolveAfter, titles)) {
        return { textChange: 'references', typography: false, correction: true };
      }
      return SUBSTANTIVE;
    }
  }
  // typography normalizeText does not fold (the normalized forms differ)
  if (sameTypography(beforeText, afterText)) {
    return { textChange: sameTargets(mb, ma, resolveBefore, resolveAfter) ? 'none' : 'substantive', typography: true };
  }
  // a punctuation mark fixed in place ("would make, They" / "would make. They"): a correction, not a rewording
  if (punctuationFix(beforeText, afterText) && sameTargets(mb, ma, resolveBefore, resolveAfter))
    return { textChange: 'none', typography: true, correction: true };
  return SUBSTANTIVE;
}

const STOPS = '.,;:';

/** True when two texts differ only in one or two sentence marks (. , ; :) replaced in place, the words and their case the same. */
function punctuationFix(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let fixed = 0;
  for (let k = 0; k < a.length; k++) {
    if (a[k] === b[k]) continue;
    if (!STOPS.includes(a[k]!) || !STOPS.includes(b[k]!) || ++fixed > 2) return false;
  }
  return fixed > 0;
}

// Every mention whose target changed lineage repairs a stale citation: it quotes the same title
// before and after, a title its old target did not have and its new target has.
function corrections(
  beforeText: string,
  afterText: string,
  mb: Mention[],
  ma: Mention[],
  rb: ResolveLineage,
  ra: ResolveLineage,
  titles: { before: TitleOf; after: TitleOf },
): boolean {
  let repaired = 0;
  for (let k = 0; k < mb.length; k++) {
    if (sameTargets([mb[k]!], [ma[k]!], rb, ra)) continue;
    const tb = mb[k]!.targets;
    const ta = ma[k]!.targets;
    if (tb.length !== 1 || ta.length !== 1) return false;
    const cb = citedTitle(beforeText, mb[k]!.end);
    const ca = citedTitle(afterText, ma[k]!.end);
    if (cb === null || ca === null || !titleMatches(cb, ca)) return false;
    const oldTitle = titles.before(tb[0]!);
    const newTitle = titles.after(ta[0]!);
    if (newTitle === null || !titleMatches(ca, newTitle)) return false;
    if (oldTitle !== null && titleMatches(cb, oldTitle)) return false;
    repaired++;
  }
  return repaired > 0;
}

// A bare TM glued to a word ("_Odyssey_TM block"), and the punctuation next to a parenthesis.
const BARE_TM = /(?<=[A-Za-z_])TM(?![A-Za-z])/g;
const PAREN_PUNCT = /\s*[.,;:]\s*(?=\))|(?<=\))\s*[.,;:]/g;

/**
 * True when two texts differ only in typography normalizeText does not fold: a bare TM, or
 * punctuation moved around a closing parenthesis ("(See rule 116.)" / "(See rule 116).").
 */
function sameTypography(a: string, b: string): boolean {
  // most reworded pairs differ in length by more than these marks could, or in a letter
  if (Math.abs(a.length - b.length) > 6 || wordsDiffer(a, b)) return false;
  const key = (t: string): string => normalizeText(t.replace(BARE_TM, '')).replace(PAREN_PUNCT, '');
  return key(a) === key(b);
}

const MARKS = /\((?:TM|tm|R|r|C|c)\)|TM/g;
// A letter outside ASCII: not general punctuation (U+2010–U+205F: dashes, quotes, primes, ellipsis), ™, ®, ©, ´,
// no-break space, minus or the replacement character.
// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL
const OTHER_LETTER = /[^\x00-\x7f\u2010-\u205f\u2122\xa0\xa9\xae\xb4\u2212\ufffd]/;

// (a cheap test first: most texts have no mark)
const mayHaveMarks = (t: string): boolean => t.includes('TM') || /\((?:tm|r|c)\)/i.test(t);

/**
 * True when two texts certainly differ beyond typography: their letters and digits (case folded,
 * punctuation and trademark marks skipped) differ. A cheap walk that spares normalizing most
 * reworded texts; false means "maybe the same" (also for letters outside ASCII, which fold).
 */
function wordsDiffer(x: string, y: string): boolean {
  // The walk starts at the last space of the texts' common prefix (no mark spans a space): builtins
  // find the prefix for less than a walk over it costs a fresh process.
  const p = commonPrefix(x, y);
  if (p === x.length && p === y.length) return false;
  const q = p > 0 ? x.lastIndexOf(' ', p - 1) + 1 : 0;
  // (the walk would stop at such a letter in the common part)
  if (q > 0 && OTHER_LETTER.test(x.slice(0, q))) return false;
  const a = mayHaveMarks(x) ? x.slice(q).replace(MARKS, '') : x.slice(q);
  const b = mayHaveMarks(y) ? y.slice(q).replace(MARKS, '') : y.slice(q);
  let i = 0;
  let j = 0;
  for (;;) {
    const ca = nextWordChar(a, i);
    const cb = nextWordChar(b, j);
    if (ca < 0 || cb < 0) return ca === -1 && cb === -1 ? false : ca !== -2 && cb !== -2;
    const la = a.charCodeAt(ca) | 32;
    const lb = b.charCodeAt(cb) | 32;
    if (la !== lb) return true;
    i = ca + 1;
    j = cb + 1;
  }
}

// Length of the longest common prefix of two strings (binary search; builtins compare the slices).
function commonPrefix(x: string, y: string): number {
  let lo = 0;
  // (a third of the texts compared differ from their first character)
  let hi = x.charCodeAt(0) === y.charCodeAt(0) ? Math.min(x.length, y.length) : 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (x.slice(0, mid) === y.slice(0, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Index of the next ASCII letter or digit from k; -1 at the end, -2 at a letter outside ASCII.
function nextWordChar(s: string, k: number): number {
  for (; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)) return k;
    if (c > 127 && OTHER_LETTER.test(s[k]!)) return -2;
  }
  return -1;
}

function sameTargets(mb: Mention[], ma: Mention[], rb: ResolveLineage, ra: ResolveLineage): boolean {
  if (mb.length !== ma.length) return false;
  for (let k = 0; k < mb.length; k++) {
    const tb = mb[k]!.targets;
    const ta = ma[k]!.targets;
    // a range ("608.2c–k") is compared by its ends: the same first and last rule, whatever came between
    if (tb.length > 1 && ta.length > 1) {
      if (!sameTarget(tb[0]!, ta[0]!, rb, ra) || !sameTarget(tb[tb.length - 1]!, ta[ta.length - 1]!, rb, ra)) return false;
    } else if (tb.length !== ta.length || !sameTarget(tb[0]!, ta[0]!, rb, ra)) return false;
  }
  return true;
}

function sameTarget(tb: string, ta: string, rb: ResolveLineage, ra: ResolveLineage): boolean {
  const lb = rb(tb);
  const la = ra(ta);
  // a dangling reference only stays "the same" if it still reads the same
  if (lb === null || la === null) return tb === ta && lb === la;
  return lb === la;
}
