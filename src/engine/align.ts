import { normalizeText } from '../core/normalize.js';

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

/** How an `after` rule was matched to its predecessor. */
export type AlignMethod =
  | 'exact' // same text, unique on both sides
  | 'same-number' // same number and same text
  | 'normalized' // same normalized text
  | 'references' // same text once rule numbers are masked
  | 'similar' // distinctive-word similarity (TF-IDF cosine)
  | 'context' // similarity with aligned parent or neighbours
  | 'children' // its children continue the candidate's children
  | 'slot' // same number, alone between the same two aligned neighbours
  | 'split' // the fragment of a split (or merge) that carries the old lead text or number
  | 'none';

/** Lineage alignment of two consecutive editions. */
export interface Alignment {
  /** For each `after` index, the `before` index it continues, or -1 for a new rule. */
  afterToBefore: Int32Array;
  /** For each `before` index, the `after` index continuing it, or -1 for a removed rule. */
  beforeToAfter: Int32Array;
  method: AlignMethod[];
  /** For each `after` index, the score the pair was chosen with (1 for exact keys, 0 for new rules). */
  score: Float32Array;
  /** One old rule whose text went into several new ones; `after[0]` is the continuation. */
  splits: Array<{ before: number; after: number[] }>;
  /** Several old rules folded into one new one; `before[0]` is the continuation. */
  merges: Array<{ before: number[]; after: number }>;
}

export interface AlignOptions {
  /** Minimum cosine for a pair with no supporting context (default 0.55). */
  minSimilarity?: number;
  /** Minimum cosine when the parents are aligned or the neighbours pin the pair (default 0.3). */
  minContextSimilarity?: number;
}

// "rule 613.6" masks as "rule #", not "#.6": the section form must not stop before a dot and digit
const REF_MASK_RE = /\b\d{3}\.\d+[a-z]?\b|\b(rules?|sections?|parts?) \d{1,3}\b(?!\.\d)/g;
const WORD_RE = /[a-z0-9]+/g;
const APOS_RE = /[’'‘`´]/g;

interface Side {
  rules: AlignRule[];
  norm: Array<string | undefined>;
  parentIdx: Int32Array;
  children: number[][];
  tokens: Array<Map<string, number> | undefined>;
  /** Document frequencies over a stride sample of the edition, computed on first need. */
  df?: Map<string, number>;
  docs: number;
}

const SAMPLE = 200;
// The ordinals of a list's steps ("Third, the active player gets priority") are never distinctive.
const ORDINALS = new Set(['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth']);
// An edition is aligned twice (with its predecessor and its successor): keep its derived data.
const sides = new WeakMap<AlignRule[], Side>();

function sideOf(rules: AlignRule[]): Side {
  let s = sides.get(rules);
  if (!s || s.rules.length !== rules.length) sides.set(rules, (s = makeSide(rules)));
  return s;
}

function sampleDf(s: Side): Map<string, number> {
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

function normOf(s: Side, i: number): string {
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

function tokensOf(s: Side, i: number): Map<string, number> {
  let t = s.tokens[i];
  if (t) return t;
  t = new Map();
  const r = s.rules[i]!;
  addWords(t, r.text, 1);
  // examples count, at half weight, to tell apart rules with thin text
  for (const ex of r.examples) addWords(t, ex, 0.5);
  s.tokens[i] = t;
  return t;
}

/** Aligns two consecutive editions: which `after` rule continues which `before` rule. */
export function alignEditions(before: AlignRule[], after: AlignRule[], opts: AlignOptions = {}): Alignment {
  return new Aligner(before, after, opts).align();
}

/**
 * The state of one alignment, its passes methods: V8 optimizes a method once, where the closures
 * made afresh for each alignment were optimized again and again (an ingest aligns a hundred pairs).
 */
class Aligner {
  private readonly minSim: number;
  private readonly minCtx: number;
  private readonly B: Side;
  private readonly A: Side;
  private readonly nb: number;
  private readonly na: number;
  private readonly a2b: Int32Array;
  private readonly b2a: Int32Array;
  private readonly method: AlignMethod[];
  private readonly score: Float32Array;
  // the similarity passes' document frequencies, idf memo, norms and slots (see similarityPasses)
  private dfA = new Map<string, number>();
  private dfB = new Map<string, number>();
  private docs = 0;
  private rareDf = 0;
  private readonly idfMemo = new Map<string, number>();
  private normsA = new Float64Array(0);
  private normsB = new Float64Array(0);
  private slotLo = new Int32Array(0);
  private slotHi = new Int32Array(0);

  constructor(
    private readonly before: AlignRule[],
    private readonly after: AlignRule[],
    opts: AlignOptions,
  ) {
    this.minSim = opts.minSimilarity ?? 0.55;
    this.minCtx = opts.minContextSimilarity ?? 0.3;
    this.B = sideOf(before);
    this.A = sideOf(after);
    this.nb = before.length;
    this.na = after.length;
    this.a2b = new Int32Array(this.na).fill(-1);
    this.b2a = new Int32Array(this.nb).fill(-1);
    this.method = new Array<AlignMethod>(this.na).fill('none');
    this.score = new Float32Array(this.na);
  }

  align(): Alignment {
    const { before, after, a2b, b2a, na, nb } = this;
    // 1. Exact keys, unique on both sides: raw text, then normalized, then with rule numbers masked.
    const hashed = hasHashes(before) && hasHashes(after);
    this.uniquePass(hashed ? (s, k) => s.rules[k]!.h! : (s, k) => s.rules[k]!.text, 'exact');
    // duplicated texts ("General", "Deleted.") pair when the number is the same too
    {
      const bByNum = new Map<string, number>();
      for (let j = 0; j < nb; j++) if (b2a[j] === -1) bByNum.set(before[j]!.number, j);
      for (let i = 0; i < na; i++) {
        if (a2b[i] !== -1) continue;
        const j = bByNum.get(after[i]!.number);
        if (j !== undefined && b2a[j] === -1 && before[j]!.text === after[i]!.text) this.pair(i, j, 'same-number');
      }
    }
    this.uniquePass(hashed ? (s, k) => s.rules[k]!.normH! : normOf, 'normalized');
    this.uniquePass((s, k) => normOf(s, k).replace(REF_MASK_RE, '#'), 'references');

    let unpairedA = 0;
    for (let i = 0; i < na; i++) if (a2b[i] === -1) unpairedA++;
    let unpairedB = 0;
    for (let j = 0; j < nb; j++) if (b2a[j] === -1) unpairedB++;
    if (unpairedA > 0 || unpairedB > 0) {
      this.similarityPasses();
      this.headingsPass();
    }
    const { splits, merges } = unpairedA > 0 || unpairedB > 0 ? this.findSplitsMerges() : { splits: [], merges: [] };
    return { afterToBefore: a2b, beforeToAfter: b2a, method: this.method, score: this.score, splits, merges };
  }

  private pair(i: number, j: number, how: AlignMethod, s = 1): void {
    this.a2b[i] = j;
    this.b2a[j] = i;
    this.method[i] = how;
    this.score[i] = s;
  }

  private unpair(i: number): void {
    const { a2b, b2a } = this;
    if (a2b[i] !== -1) b2a[a2b[i]!] = -1;
    a2b[i] = -1;
    this.method[i] = 'none';
    this.score[i] = 0;
  }

  private uniquePass(key: (s: Side, k: number) => string | number, how: AlignMethod): void {
    const { A, B, a2b, b2a, na, nb } = this;
    // the rule of each key on either side, -1 for a key more than one rule has
    const unique = (s: Side, n: number, paired: Int32Array): Map<string | number, number> => {
      const m = new Map<string | number, number>();
      for (let x = 0; x < n; x++) {
        if (paired[x] !== -1) continue;
        const k = key(s, x);
        m.set(k, m.has(k) ? -1 : x);
      }
      return m;
    };
    const inB = unique(B, nb, b2a);
    for (const [k, i] of unique(A, na, a2b)) {
      const j = inB.get(k);
      if (i !== -1 && j !== undefined && j !== -1) this.pair(i, j, how);
    }
  }

  // +1 when both parents are aligned with each other, -1 when both are aligned elsewhere, else 0.
  private parentAgreement(i: number, j: number): number {
    const { a2b, b2a } = this;
    const pa = this.A.parentIdx[i]!;
    const pb = this.B.parentIdx[j]!;
    if (pa === -1 || pb === -1) return 0;
    if (a2b[pa] === pb) return 1;
    return a2b[pa] !== -1 && b2a[pb] !== -1 ? -1 : 0;
  }

  // the rule most of `kids` continue children of: two votes at least, one if it keeps the number
  private majority(kids: number[], to: Int32Array, otherParent: Int32Array, number: (p: number) => boolean): number {
    const votes = new Map<number, number>();
    let paired = 0;
    for (const c of kids) {
      const y = to[c]!;
      if (y === -1) continue;
      paired++;
      const p = otherParent[y]!;
      if (p !== -1) votes.set(p, (votes.get(p) ?? 0) + 1);
    }
    for (const [p, v] of votes) if ((v >= 2 || number(p)) && v * 2 > paired) return p;
    return -1;
  }

  // children of `i` continuing children of `j`
  private support(i: number, j: number): number {
    const { a2b } = this;
    let n = 0;
    for (const c of this.A.children[i]!) if (a2b[c] !== -1 && this.B.parentIdx[a2b[c]!] === j) n++;
    return n;
  }

  // Headings pair on their children: a heading whose paired children mostly continue the children
  // of one old heading (at least two, and mutually) continues that heading, whatever its title matched.
  private headingsPass(): void {
    const { A, B, a2b, b2a, na, nb, before, after } = this;
    for (let round = 0; round < 3; round++) {
      let moved = 0;
      for (let i = 0; i < na; i++) {
        if (A.children[i]!.length === 0) continue;
        const j = this.majority(A.children[i]!, a2b, B.parentIdx, (p) => before[p]!.number === after[i]!.number);
        if (j === -1 || a2b[i] === j) continue;
        if (this.majority(B.children[j]!, b2a, A.parentIdx, (p) => after[p]!.number === before[j]!.number) !== i) continue;
        // a title, not a rule that took over the old heading's children ("Declare Attackers Step" → 308.2)
        if (after[i]!.kind !== before[j]!.kind || !sharesWord(tokensOf(A, i), tokensOf(B, j))) continue;
        // only pairs no child supports are undone
        const other = b2a[j]!;
        if ((other !== -1 && this.support(other, j) > 0) || (a2b[i] !== -1 && this.support(i, a2b[i]!) > 0)) continue;
        if (other !== -1) this.unpair(other);
        this.unpair(i);
        this.pair(i, j, 'children', 1);
        moved++;
      }
      if (moved === 0) break;
    }
    // a heading left unpaired (say, displaced above) continues the unpaired heading of its number
    // that one of its children continues, when their titles share a word
    const bByNumber = new Map<string, number>();
    for (let j = 0; j < nb; j++) if (b2a[j] === -1 && B.children[j]!.length > 0) bByNumber.set(before[j]!.number, j);
    for (let i = 0; i < na; i++) {
      if (a2b[i] !== -1 || A.children[i]!.length === 0) continue;
      const j = bByNumber.get(after[i]!.number);
      if (j === undefined || b2a[j] !== -1 || after[i]!.kind !== before[j]!.kind) continue;
      if (this.support(i, j) > 0 && sharesWord(tokensOf(A, i), tokensOf(B, j))) this.pair(i, j, 'children', this.support(i, j) / A.children[i]!.length);
    }
  }

  private similarityPasses(): void {
    // Document frequencies from a stride sample of both editions.
    this.dfA = sampleDf(this.A);
    this.dfB = sampleDf(this.B);
    this.docs = this.A.docs + this.B.docs;
    // a token in at most ~1% of rules is distinctive: a keyword name, not "triggered ability"
    this.rareDf = Math.max(2, this.docs * 0.01);
    this.normsA = new Float64Array(this.na);
    this.normsB = new Float64Array(this.nb);
    this.globalPass();
    this.childrenPass();
    this.siblingsPass();
    this.gapPass();
    this.globalPass();
    this.childrenPass();
    this.siblingsPass();
  }

  private dfOf(w: string): number {
    return (this.dfA.get(w) ?? 0) + (this.dfB.get(w) ?? 0);
  }

  private idf(w: string): number {
    let v = this.idfMemo.get(w);
    if (v === undefined) this.idfMemo.set(w, (v = Math.log((this.docs + 1) / (this.dfOf(w) + 0.5))));
    return v;
  }

  private isRare(w: string): boolean {
    return this.dfOf(w) <= this.rareDf && !ORDINALS.has(w);
  }

  private vecNorm(t: Map<string, number>): number {
    let s = 0;
    for (const [w, c] of t) s += (c * this.idf(w)) ** 2;
    return Math.sqrt(s);
  }

  private nA(i: number): number {
    return (this.normsA[i] ||= this.vecNorm(tokensOf(this.A, i)));
  }

  private nB(j: number): number {
    return (this.normsB[j] ||= this.vecNorm(tokensOf(this.B, j)));
  }

  private cosine(i: number, j: number): { cos: number; rare: boolean } {
    const ta = tokensOf(this.A, i);
    const tb = tokensOf(this.B, j);
    let dot = 0;
    let rare = false;
    const [small, big] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
    for (const [w, c] of small) {
      const d = big.get(w);
      if (d === undefined) continue;
      const f = this.idf(w);
      dot += c * d * f * f;
      if (!rare && c >= 1 && d >= 1 && this.isRare(w)) rare = true;
    }
    const den = this.nA(i) * this.nB(j);
    return { cos: den > 0 ? dot / den : 0, rare };
  }

  // Where each `after` rule sits between aligned anchors: the `before` positions bounding its slot.
  private computeSlots(): void {
    const { a2b, na, nb } = this;
    const slotLo = (this.slotLo = new Int32Array(na));
    const slotHi = (this.slotHi = new Int32Array(na));
    let lo = -1;
    for (let i = 0; i < na; i++) {
      slotLo[i] = lo;
      if (a2b[i] !== -1) lo = a2b[i]!;
    }
    let hi = nb;
    for (let i = na - 1; i >= 0; i--) {
      slotHi[i] = hi;
      if (a2b[i] !== -1) hi = a2b[i]!;
    }
  }

  private inSlot(i: number, j: number): boolean {
    return this.slotLo[i]! < j && j < this.slotHi[i]!;
  }

  /**
   * The score of a candidate pair, or -1 when it is not acceptable: similarity, plus agreement
   * of the parents (a penalty when both are aligned elsewhere), the slot between aligned
   * neighbours and the number.
   */
  private scored(i: number, j: number, threshold: number): number {
    const { after, before, B } = this;
    if (!kindsCompatible(after[i]!.kind, before[j]!.kind)) return -1;
    const { cos, rare } = this.cosine(i, j);
    if (cos < threshold) return -1;
    const parents = this.parentAgreement(i, j);
    // merely similar boilerplate ("X is a static ability.") shares no distinctive word;
    // under parents already aligned (the same keyword, the same list) that is no risk, least of
    // all between the same two aligned neighbours
    const slot = this.inSlot(i, j);
    if (!rare && cos < 0.9 && !(cos >= (slot ? 0.3 : 0.45) && parents === 1)) return -1;
    // a subrule moving to another rule, both rules staying put, keeps nearly all its words
    // (rules move between sections more freely in a restructuring)
    const penalty = parents === -1 ? (B.parentIdx[B.parentIdx[j]!]! !== -1 ? 0.3 : 0.1) : 0;
    if (cos - penalty < threshold) return -1;
    return cos + (parents === 1 ? 0.2 : -penalty) + (slot ? 0.03 : 0) + (after[i]!.number === before[j]!.number ? 0.05 : 0);
  }

  // Candidates chosen by maximum total weight within each connected group, not first come first served.
  private assign(cands: Array<[number, number, number]>, how: AlignMethod): void {
    for (const [i, j, s] of chooseMatching(cands)) if (this.a2b[i] === -1 && this.b2a[j] === -1) this.pair(i, j, how, s);
  }

  // Candidate generation through an inverted index of distinctive tokens of unpaired `before` rules.
  private globalPass(): void {
    const { A, B, a2b, b2a, na, nb } = this;
    this.computeSlots();
    const postings = new Map<string, number[]>();
    for (let j = 0; j < nb; j++) {
      if (b2a[j] !== -1) continue;
      for (const [w, c] of tokensOf(B, j)) {
        if (c < 1 || !this.isRare(w)) continue;
        let p = postings.get(w);
        if (!p) postings.set(w, (p = []));
        p.push(j);
      }
    }
    const cands: Array<[number, number, number]> = [];
    const acc = new Map<number, number>();
    for (let i = 0; i < na; i++) {
      if (a2b[i] !== -1) continue;
      acc.clear();
      for (const [w, c] of tokensOf(A, i)) {
        const p = c >= 1 ? postings.get(w) : undefined;
        if (!p || p.length > 100) continue;
        const f = this.idf(w);
        for (const j of p) acc.set(j, (acc.get(j) ?? 0) + f);
      }
      // only the few old rules sharing the most distinctive words are compared in full (and
      // those tied with the last of them: one shared word can be all there is)
      const ranked = [...acc].sort((x, y) => y[1] - x[1] || x[0] - y[0]);
      let cut = Math.min(8, ranked.length);
      while (cut < ranked.length && cut < 32 && ranked[cut]![1] === ranked[cut - 1]![1]) cut++;
      const top = ranked.slice(0, cut);
      for (const [j] of top) {
        const s = this.scored(i, j, this.parentAgreement(i, j) === 1 ? this.minCtx + 0.1 : this.minSim);
        if (s >= 0) cands.push([i, j, s]);
      }
    }
    this.assign(cands, 'similar');
  }

  // Unpaired rules between two anchors that keep their order are compared with a lower threshold;
  // the one rule keeping its number in such a slot continues even when reworded.
  private gapPass(): void {
    const { A, B, a2b, b2a, na, nb, before, after, minCtx } = this;
    this.computeSlots();
    const cands: Array<[number, number, number]> = [];
    const slot: Array<[number, number, number]> = [];
    let i = 0;
    while (i < na) {
      if (a2b[i] !== -1) {
        i++;
        continue;
      }
      const gs = i;
      while (i < na && a2b[i] === -1) i++;
      const ge = i; // after gap [gs, ge)
      const bStart = gs > 0 ? a2b[gs - 1]! + 1 : 0;
      const bEnd = ge < na ? a2b[ge]! : nb;
      if (bEnd <= bStart || (ge - gs) * (bEnd - bStart) > 4000) continue;
      for (let x = gs; x < ge; x++) {
        for (let j = bStart; j < bEnd; j++) {
          if (b2a[j] !== -1) continue;
          const s = this.scored(x, j, minCtx);
          if (s >= 0) cands.push([x, j, s]);
          else if (after[x]!.number === before[j]!.number && kindsCompatible(after[x]!.kind, before[j]!.kind)) {
            const { cos } = this.cosine(x, j);
            // under the same (aligned) parent: a new keyword's boilerplate in a deleted one's slot is not it
            const bothTop = A.parentIdx[x] === -1 && B.parentIdx[j] === -1;
            if (cos >= 0.15 && (bothTop || this.parentAgreement(x, j) === 1)) slot.push([x, j, cos]);
          }
        }
      }
    }
    this.assign(cands, 'context');
    this.assign(slot, 'slot');
  }

  // A rule whose children mostly continue one old rule's children continues that rule
  // (one child's vote is enough only with a similar title).
  private childrenPass(): void {
    const { A, B, a2b, b2a, na, before, after } = this;
    for (let round = 0; round < 2; round++) {
      for (let i = na - 1; i >= 0; i--) {
        if (a2b[i] !== -1 || A.children[i]!.length === 0) continue;
        const votes = new Map<number, number>();
        let paired = 0;
        for (const c of A.children[i]!) {
          const j = a2b[c]!;
          if (j === -1) continue;
          paired++;
          const p = B.parentIdx[j]!;
          if (p !== -1) votes.set(p, (votes.get(p) ?? 0) + 1);
        }
        let best = -1;
        let bestV = 0;
        for (const [p, v] of votes) if (v > bestV) [best, bestV] = [p, v];
        if (best === -1 || b2a[best] !== -1 || bestV * 2 <= paired) continue;
        if (!kindsCompatible(after[i]!.kind, before[best]!.kind)) continue;
        // a title does not continue as a rule of many words, nor the reverse ("Targeted Spells and Abilities" → 113.1)
        if (isTitle(after[i]!.text) !== isTitle(before[best]!.text)) continue;
        if (bestV >= 2 || this.cosine(i, best).cos >= this.minCtx) this.pair(i, best, 'children', bestV / paired);
      }
    }
  }

  // Unpaired children of aligned parents are compared with each other; a child paired by
  // similarity outside its parent's counterpart moves to a sibling that scores clearly better.
  private siblingsPass(): void {
    const { A, B, a2b, b2a, na, method, score } = this;
    this.computeSlots();
    const cands: Array<[number, number, number]> = [];
    for (let i = 0; i < na; i++) {
      const pa = A.parentIdx[i]!;
      if (pa === -1 || a2b[pa] === -1) continue;
      const movable = a2b[i] !== -1 && (method[i] === 'similar' || method[i] === 'context') && this.parentAgreement(i, a2b[i]!) !== 1;
      if (a2b[i] !== -1 && !movable) continue;
      for (const j of B.children[a2b[pa]!]!) {
        if (b2a[j] !== -1) continue;
        const s = this.scored(i, j, this.minCtx + 0.1);
        if (s >= 0 && (!movable || s > score[i]! + 0.15)) cands.push([i, j, s]);
      }
    }
    for (const [i, j, s] of chooseMatching(cands)) {
      if (b2a[j] !== -1) continue;
      if (a2b[i] !== -1) this.unpair(i);
      this.pair(i, j, 'context', s);
    }
  }

  // the share of `small`'s words in `big`, 0 when a distinctive one is missing ("Class" is no "Saga")
  private contained(small: Map<string, number>, big: Map<string, number>): number {
    let inside = 0;
    let total = 0;
    for (const [w, c] of small) {
      if (c < 1) continue;
      total++;
      if (big.has(w)) inside++;
      else if ((this.dfA.get(w) ?? 0) + (this.dfB.get(w) ?? 0) <= this.rareDf && !ORDINALS.has(w)) return 0;
    }
    return total >= 4 ? inside / total : 0;
  }

  // An unpaired rule on one side joins the counterpart of its nearest paired neighbour when
  // nearly all its words are in it: a new rule split off an old one, or an old one merged in.
  private attach(n: number, toOther: Int32Array, own: Side, other: Side, into: Map<number, number[]>): void {
    for (let x = 0; x < n; x++) {
      if (toOther[x] !== -1) continue;
      for (const k of [x - 1, x + 1, x - 2, x + 2, x - 3, x + 3]) {
        if (k < 0 || k >= n) continue;
        const y = toOther[k]!;
        if (y === -1) continue;
        if (this.contained(tokensOf(own, x), tokensOf(other, y)) >= 0.8) {
          const list = into.get(y) ?? [k];
          list.push(x);
          into.set(y, list);
          break;
        }
      }
    }
  }

  private findSplitsMerges(): { splits: Alignment['splits']; merges: Alignment['merges'] } {
    const { A, B, a2b, b2a, na, nb, before, after, method, score } = this;
    // A new rule whose words are nearly all in its neighbour's predecessor came out of it.
    const splits = new Map<number, number[]>();
    const merges = new Map<number, number[]>();
    this.dfA = sampleDf(A);
    this.dfB = sampleDf(B);
    this.rareDf = Math.max(2, (A.docs + B.docs) * 0.01);
    // An old rule paired by similarity with one fragment of its text goes to the nearby fragment that
    // opens as it did (504.3's tail matched best, but 707.5 keeps its opening sentence).
    for (let i = 0; i < na; i++) {
      const j = a2b[i]!;
      if (j === -1 || (method[i] !== 'similar' && method[i] !== 'context')) continue;
      const own = commonPrefix(normOf(A, i), normOf(B, j));
      for (let x = Math.max(0, i - 3); x <= Math.min(na - 1, i + 3); x++) {
        if (x === i || A.parentIdx[x] !== A.parentIdx[i]) continue;
        // (a fragment already continuing a rule of its parent's counterpart stays)
        if (a2b[x] !== -1 && (score[x]! >= score[i]! || this.parentAgreement(x, a2b[x]!) === 1)) continue;
        const lead = commonPrefix(normOf(A, x), normOf(B, j));
        if (lead < 40 || lead <= own + 10) continue;
        const s = score[i]!;
        this.unpair(i);
        if (a2b[x] !== -1) this.unpair(x);
        this.pair(x, j, 'split', s);
        break;
      }
    }
    this.attach(na, a2b, A, B, splits);
    this.attach(nb, b2a, B, A, merges);
    // The continuation of a split is the fragment that carries the old lead text (then its number).
    for (const [j, list] of splits) {
      const best = continuation(
        list,
        (x) => commonPrefix(normOf(A, x), normOf(B, j)),
        (x) => after[x]!.number === before[j]!.number,
      );
      if (best === list[0] || a2b[list[0]!] !== j || a2b[best] !== -1) continue;
      const s = score[list[0]!]!;
      this.unpair(list[0]!);
      this.pair(best, j, 'split', s);
      list.splice(list.indexOf(best), 1);
      list.unshift(best);
    }
    for (const [i, list] of merges) {
      const best = continuation(
        list,
        (y) => commonPrefix(normOf(A, i), normOf(B, y)),
        (y) => after[i]!.number === before[y]!.number,
      );
      if (best === list[0] || a2b[i] !== list[0] || b2a[best] !== -1) continue;
      const s = score[i]!;
      this.unpair(i);
      this.pair(i, best, 'split', s);
      list.splice(list.indexOf(best), 1);
      list.unshift(best);
    }
    return {
      splits: [...splits].map(([before, afterList]) => ({ before, after: afterList })),
      merges: [...merges].map(([afterIdx, beforeList]) => ({ before: beforeList, after: afterIdx })),
    };
  }
}

function hasHashes(rules: AlignRule[]): boolean {
  return rules.every((r) => r.h !== undefined && r.normH !== undefined);
}

// A heading's text: a few words, no sentence.
function isTitle(text: string): boolean {
  return text.length <= 60 && !/[.:]\s*$/.test(text) && text.split(/\s+/).length <= 8;
}

function sharesWord(a: Map<string, number>, b: Map<string, number>): boolean {
  const stems = new Set([...b.keys()].map(stem));
  for (const w of a.keys()) if (stems.has(stem(w))) return true;
  return false;
}

// Among split (or merge) fragments, the one sharing the longest opening with the whole (at least
// a few words), else the one keeping the number, else the one already paired (the first).
function continuation(list: number[], prefix: (x: number) => number, sameNumber: (x: number) => boolean): number {
  let best = list[0]!;
  let bestLen = prefix(best);
  for (const x of list.slice(1)) {
    const len = prefix(x);
    if (len > bestLen + 10) [best, bestLen] = [x, len];
  }
  if (bestLen >= 30) return best;
  return list.find(sameNumber) ?? list[0]!;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  return k;
}

/**
 * A maximum-weight matching of candidate pairs [after, before, score]: optimal (Hungarian method)
 * within each connected group of candidates of moderate size, greedy by score in larger ones.
 * Weights are scores above a floor, so one strong pair outweighs two weak ones.
 */
export function chooseMatching(cands: Array<[number, number, number]>): Array<[number, number, number]> {
  if (cands.length === 0) return [];
  // connected groups by union-find over after (even) and before (odd) nodes
  const id = new Map<number, number>();
  const up: number[] = [];
  const node = (k: number): number => {
    let n = id.get(k);
    if (n === undefined) {
      id.set(k, (n = up.length));
      up.push(n);
    }
    return n;
  };
  const find = (x: number): number => {
    while (up[x] !== x) x = up[x] = up[up[x]!]!;
    return x;
  };
  for (const [i, j] of cands) {
    const a = find(node(2 * i));
    const b = find(node(2 * j + 1));
    if (a !== b) up[a] = b;
  }
  const groups = new Map<number, Array<[number, number, number]>>();
  for (const c of cands) {
    const g = find(node(2 * c[0]));
    let list = groups.get(g);
    if (!list) groups.set(g, (list = []));
    list.push(c);
  }
  const out: Array<[number, number, number]> = [];
  for (const list of groups.values()) {
    const rows = [...new Set(list.map((c) => c[0]))];
    const cols = [...new Set(list.map((c) => c[1]))];
    if (list.length === 1 || Math.min(rows.length, cols.length) > 150 || Math.max(rows.length, cols.length) > 400) {
      list.sort((x, y) => y[2] - x[2] || x[0] - y[0] || x[1] - y[1]);
      const ri = new Set<number>();
      const cj = new Set<number>();
      for (const c of list) {
        if (ri.has(c[0]) || cj.has(c[1])) continue;
        ri.add(c[0]);
        cj.add(c[1]);
        out.push(c);
      }
      continue;
    }
    const flip = rows.length > cols.length;
    const [R, C] = flip ? [cols, rows] : [rows, cols];
    const rIdx = new Map(R.map((x, k) => [x, k]));
    const cIdx = new Map(C.map((x, k) => [x, k]));
    const cost = new Float64Array(R.length * C.length);
    const best = new Map<number, [number, number, number]>();
    for (const c of list) {
      const r = rIdx.get(flip ? c[1] : c[0])!;
      const k = cIdx.get(flip ? c[0] : c[1])!;
      const w = -Math.max(0.02, c[2] - 0.4);
      if (w < cost[r * C.length + k]!) {
        cost[r * C.length + k] = w;
        best.set(r * C.length + k, c);
      }
    }
    const match = hungarian(R.length, C.length, cost);
    for (let r = 0; r < R.length; r++) {
      const c = best.get(r * C.length + match[r]!);
      if (c) out.push(c);
    }
  }
  return out;
}

// Minimum-cost assignment of n rows to distinct columns among m >= n (cost row-major), O(n²m).
function hungarian(n: number, m: number, cost: Float64Array): Int32Array {
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1);
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[(i0 - 1) * m + j - 1]! - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const rowToCol = new Int32Array(n).fill(-1);
  for (let j = 1; j <= m; j++) if (p[j]! > 0) rowToCol[p[j]! - 1] = j - 1;
  return rowToCol;
}

function kindsCompatible(a: string, b: string): boolean {
  if (a === b) return true;
  // the 2009 rewrite turned some rules into sections and some subrules into rules
  return a !== 'ruling' && b !== 'ruling';
}
