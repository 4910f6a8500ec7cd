import { chooseMatching } from './chooseMatching.js';
import { ORDINALS, sideOf, tokensOf, kindsCompatible, type AlignRule, type Side } from './Side.js';

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

/**
 * The state of one alignment, which its passes (functions of their own modules, each given the state)
 * build up: which rule is paired with which, how and with what score, and the words' statistics the
 * similarity passes share. One object per alignment, its methods optimized once by V8 (closures made
 * afresh for each alignment were optimized again and again: an ingest aligns a hundred pairs).
 */
export class AlignState {
  readonly B: Side;
  readonly A: Side;
  readonly nb: number;
  readonly na: number;
  readonly a2b: Int32Array;
  readonly b2a: Int32Array;
  readonly method: AlignMethod[];
  readonly score: Float32Array;
  // the similarity passes' document frequencies, idf memo, norms and slots (see similarityPasses)
  dfA = new Map<string, number>();
  dfB = new Map<string, number>();
  docs = 0;
  rareDf = 0;
  readonly idfMemo = new Map<string, number>();
  normsA = new Float64Array(0);
  normsB = new Float64Array(0);
  slotLo = new Int32Array(0);
  slotHi = new Int32Array(0);

  constructor(
    readonly before: AlignRule[],
    readonly after: AlignRule[],
    /** Minimum cosine for a pair with no supporting context. */
    readonly minSim: number,
    /** Minimum cosine when the parents are aligned or the neighbours pin the pair. */
    readonly minCtx: number,
  ) {
    this.B = sideOf(before);
    this.A = sideOf(after);
    this.nb = before.length;
    this.na = after.length;
    this.a2b = new Int32Array(this.na).fill(-1);
    this.b2a = new Int32Array(this.nb).fill(-1);
    this.method = new Array<AlignMethod>(this.na).fill('none');
    this.score = new Float32Array(this.na);
  }

  pair(i: number, j: number, how: AlignMethod, s = 1): void {
    this.a2b[i] = j;
    this.b2a[j] = i;
    this.method[i] = how;
    this.score[i] = s;
  }

  unpair(i: number): void {
    const { a2b, b2a } = this;
    if (a2b[i] !== -1) b2a[a2b[i]!] = -1;
    a2b[i] = -1;
    this.method[i] = 'none';
    this.score[i] = 0;
  }

  // +1 when both parents are aligned with each other, -1 when both are aligned elsewhere, else 0.
  parentAgreement(i: number, j: number): number {
    const { a2b, b2a } = this;
    const pa = this.A.parentIdx[i]!;
    const pb = this.B.parentIdx[j]!;
    if (pa === -1 || pb === -1) return 0;
    if (a2b[pa] === pb) return 1;
    return a2b[pa] !== -1 && b2a[pb] !== -1 ? -1 : 0;
  }

  // the rule most of `kids` continue children of: two votes at least, one if it keeps the number
  majority(kids: number[], to: Int32Array, otherParent: Int32Array, number: (p: number) => boolean): number {
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
  support(i: number, j: number): number {
    const { a2b } = this;
    let n = 0;
    for (const c of this.A.children[i]!) if (a2b[c] !== -1 && this.B.parentIdx[a2b[c]!] === j) n++;
    return n;
  }

  dfOf(w: string): number {
    return (this.dfA.get(w) ?? 0) + (this.dfB.get(w) ?? 0);
  }

  idf(w: string): number {
    let v = this.idfMemo.get(w);
    if (v === undefined) this.idfMemo.set(w, (v = Math.log((this.docs + 1) / (this.dfOf(w) + 0.5))));
    return v;
  }

  isRare(w: string): boolean {
    return this.dfOf(w) <= this.rareDf && !ORDINALS.has(w);
  }

  vecNorm(t: Map<string, number>): number {
    let s = 0;
    for (const [w, c] of t) s += (c * this.idf(w)) ** 2;
    return Math.sqrt(s);
  }

  nA(i: number): number {
    return (this.normsA[i] ||= this.vecNorm(tokensOf(this.A, i)));
  }

  nB(j: number): number {
    return (this.normsB[j] ||= this.vecNorm(tokensOf(this.B, j)));
  }

  cosine(i: number, j: number): { cos: number; rare: boolean } {
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
  computeSlots(): void {
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

  inSlot(i: number, j: number): boolean {
    return this.slotLo[i]! < j && j < this.slotHi[i]!;
  }

  /**
   * The score of a candidate pair, or -1 when it is not acceptable: similarity, plus agreement
   * of the parents (a penalty when both are aligned elsewhere), the slot between aligned
   * neighbours and the number.
   */
  scored(i: number, j: number, threshold: number): number {
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
  assign(cands: Array<[number, number, number]>, how: AlignMethod): void {
    for (const [i, j, s] of chooseMatching(cands)) if (this.a2b[i] === -1 && this.b2a[j] === -1) this.pair(i, j, how, s);
  }

  // the share of `small`'s words in `big`, 0 when a distinctive one is missing ("Class" is no "Saga")
  contained(small: Map<string, number>, big: Map<string, number>): number {
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
}
