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
  | 'none';

/** Lineage alignment of two consecutive editions. */
export interface Alignment {
  /** For each `after` index, the `before` index it continues, or -1 for a new rule. */
  afterToBefore: Int32Array;
  /** For each `before` index, the `after` index continuing it, or -1 for a removed rule. */
  beforeToAfter: Int32Array;
  method: AlignMethod[];
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

const REF_MASK_RE = /\b\d{3}\.\d+[a-z]?\b|\b(rules?|sections?) \d{1,3}\b/g;
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
  const words = text.toLowerCase().replace(APOS_RE, '').match(WORD_RE) ?? [];
  for (const w of words) {
    // rule numbers and other digits say nothing about which rule this is
    if (w.charCodeAt(0) <= 57) continue;
    const c = t.get(w);
    if (weight >= 1) t.set(w, (c ?? 0) + weight);
    else if (c === undefined) t.set(w, weight);
  }
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

function countMap(keys: Iterable<string>): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** Aligns two consecutive editions: which `after` rule continues which `before` rule. */
export function alignEditions(before: AlignRule[], after: AlignRule[], opts: AlignOptions = {}): Alignment {
  const minSim = opts.minSimilarity ?? 0.55;
  const minCtx = opts.minContextSimilarity ?? 0.3;
  const B = sideOf(before);
  const A = sideOf(after);
  const nb = before.length;
  const na = after.length;
  const a2b = new Int32Array(na).fill(-1);
  const b2a = new Int32Array(nb).fill(-1);
  const method: AlignMethod[] = new Array<AlignMethod>(na).fill('none');
  const pair = (i: number, j: number, how: AlignMethod): void => {
    a2b[i] = j;
    b2a[j] = i;
    method[i] = how;
  };

  // 1. Exact keys, unique on both sides: raw text, then normalized, then with rule numbers masked.
  const uniquePass = (key: (s: Side, k: number) => string, how: AlignMethod): void => {
    const bIdx = new Map<string, number>();
    const bCount = new Map<string, number>();
    for (let j = 0; j < nb; j++) {
      if (b2a[j] !== -1) continue;
      const k = key(B, j);
      bCount.set(k, (bCount.get(k) ?? 0) + 1);
      bIdx.set(k, j);
    }
    const aKeys: Array<string | null> = new Array<string | null>(na).fill(null);
    for (let i = 0; i < na; i++) if (a2b[i] === -1) aKeys[i] = key(A, i);
    const aCount = countMap(aKeys.filter((k): k is string => k !== null));
    for (let i = 0; i < na; i++) {
      const k = aKeys[i];
      if (k === null || k === undefined || aCount.get(k) !== 1 || bCount.get(k) !== 1) continue;
      pair(i, bIdx.get(k)!, how);
    }
  };
  uniquePass((s, k) => s.rules[k]!.text, 'exact');
  // duplicated texts ("General", "Deleted.") pair when the number is the same too
  {
    const bByNum = new Map<string, number>();
    for (let j = 0; j < nb; j++) if (b2a[j] === -1) bByNum.set(before[j]!.number, j);
    for (let i = 0; i < na; i++) {
      if (a2b[i] !== -1) continue;
      const j = bByNum.get(after[i]!.number);
      if (j !== undefined && b2a[j] === -1 && before[j]!.text === after[i]!.text) pair(i, j, 'same-number');
    }
  }
  uniquePass(normOf, 'normalized');
  uniquePass((s, k) => normOf(s, k).replace(REF_MASK_RE, '#'), 'references');

  let unpairedA = 0;
  for (let i = 0; i < na; i++) if (a2b[i] === -1) unpairedA++;
  if (unpairedA > 0) similarityPasses();
  const { splits, merges } = unpairedA > 0 ? findSplitsMerges() : { splits: [], merges: [] };
  return { afterToBefore: a2b, beforeToAfter: b2a, method, splits, merges };

  function similarityPasses(): void {
    // Document frequencies from a stride sample of both editions.
    const dfA = sampleDf(A);
    const dfB = sampleDf(B);
    const docs = A.docs + B.docs;
    const dfOf = (w: string): number => (dfA.get(w) ?? 0) + (dfB.get(w) ?? 0);
    const idfMemo = new Map<string, number>();
    const idf = (w: string): number => {
      let v = idfMemo.get(w);
      if (v === undefined) idfMemo.set(w, (v = Math.log((docs + 1) / (dfOf(w) + 0.5))));
      return v;
    };
    // a token in at most ~1% of rules is distinctive: a keyword name, not "triggered ability"
    const rareDf = Math.max(2, docs * 0.01);
    const isRare = (w: string): boolean => dfOf(w) <= rareDf;
    const vecNorm = (t: Map<string, number>): number => {
      let s = 0;
      for (const [w, c] of t) s += (c * idf(w)) ** 2;
      return Math.sqrt(s);
    };
    const normsA = new Float64Array(na);
    const normsB = new Float64Array(nb);
    const nA = (i: number): number => (normsA[i] ||= vecNorm(tokensOf(A, i)));
    const nB = (j: number): number => (normsB[j] ||= vecNorm(tokensOf(B, j)));
    const cosine = (i: number, j: number): { cos: number; rare: boolean } => {
      const ta = tokensOf(A, i);
      const tb = tokensOf(B, j);
      let dot = 0;
      let rare = false;
      const [small, big] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
      for (const [w, c] of small) {
        const d = big.get(w);
        if (d === undefined) continue;
        const f = idf(w);
        dot += c * d * f * f;
        if (!rare && c >= 1 && d >= 1 && isRare(w)) rare = true;
      }
      const den = nA(i) * nB(j);
      return { cos: den > 0 ? dot / den : 0, rare };
    };
    const acceptable = (i: number, j: number, threshold: number): number => {
      if (!kindsCompatible(after[i]!.kind, before[j]!.kind)) return -1;
      const { cos, rare } = cosine(i, j);
      if (cos < threshold) return -1;
      // merely similar boilerplate ("X is a static ability.") shares no distinctive word;
      // under parents already aligned (the same keyword, the same list) that is no risk
      if (!rare && cos < 0.9 && !(cos >= 0.45 && parentsAligned(i, j))) return -1;
      return cos;
    };
    const parentsAligned = (i: number, j: number): boolean => {
      const pa = A.parentIdx[i]!;
      const pb = B.parentIdx[j]!;
      return pa !== -1 && pb !== -1 && a2b[pa] === pb;
    };

    const greedy = (cands: Array<[number, number, number]>, how: AlignMethod): void => {
      cands.sort((x, y) => y[2] - x[2] || x[0] - y[0]);
      for (const [i, j] of cands) if (a2b[i] === -1 && b2a[j] === -1) pair(i, j, how);
    };

    // Candidate generation through an inverted index of distinctive tokens of unpaired `before` rules.
    const globalPass = (): void => {
      const postings = new Map<string, number[]>();
      for (let j = 0; j < nb; j++) {
        if (b2a[j] !== -1) continue;
        for (const [w, c] of tokensOf(B, j)) {
          if (c < 1 || !isRare(w)) continue;
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
          const f = idf(w);
          for (const j of p) acc.set(j, (acc.get(j) ?? 0) + f);
        }
        // only the few old rules sharing the most distinctive words are compared in full
        const top = [...acc].sort((x, y) => y[1] - x[1]).slice(0, 8);
        for (const [j] of top) {
          const ctx = parentsAligned(i, j);
          const s = acceptable(i, j, ctx ? minCtx + 0.1 : minSim);
          if (s >= 0) cands.push([i, j, s + (ctx ? 0.2 : 0) + (after[i]!.number === before[j]!.number ? 0.05 : 0)]);
        }
      }
      greedy(cands, 'similar');
    };

    // Unpaired rules between two anchors that keep their order are compared with a lower threshold.
    const gapPass = (): void => {
      const cands: Array<[number, number, number]> = [];
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
            const s = acceptable(x, j, minCtx);
            if (s >= 0) cands.push([x, j, s]);
          }
        }
      }
      greedy(cands, 'context');
    };

    // A rule whose children mostly continue one old rule's children continues that rule.
    const childrenPass = (): void => {
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
          if (best !== -1 && b2a[best] === -1 && bestV * 2 > paired) pair(i, best, 'children');
        }
      }
    };

    // Unpaired children of aligned parents are compared with each other.
    const siblingsPass = (): void => {
      const cands: Array<[number, number, number]> = [];
      for (let i = 0; i < na; i++) {
        const pa = A.parentIdx[i]!;
        if (a2b[i] !== -1 || pa === -1 || a2b[pa] === -1) continue;
        for (const j of B.children[a2b[pa]!]!) {
          if (b2a[j] !== -1) continue;
          const s = acceptable(i, j, minCtx + 0.1);
          if (s >= 0) cands.push([i, j, s]);
        }
      }
      greedy(cands, 'context');
    };

    globalPass();
    childrenPass();
    siblingsPass();
    gapPass();
    globalPass();
    childrenPass();
    siblingsPass();
  }

  function findSplitsMerges(): { splits: Alignment['splits']; merges: Alignment['merges'] } {
    // A new rule whose words are nearly all in its neighbour's predecessor came out of it.
    const splits = new Map<number, number[]>();
    const merges = new Map<number, number[]>();
    const contained = (small: Map<string, number>, big: Map<string, number>): number => {
      let inside = 0;
      let total = 0;
      for (const [w, c] of small) {
        if (c < 1) continue;
        total++;
        if (big.has(w)) inside++;
      }
      return total >= 4 ? inside / total : 0;
    };
    // An unpaired rule on one side joins the counterpart of its nearest paired neighbour when
    // nearly all its words are in it: a new rule split off an old one, or an old one merged in.
    const attach = (n: number, toOther: Int32Array, own: Side, other: Side, into: Map<number, number[]>): void => {
      for (let x = 0; x < n; x++) {
        if (toOther[x] !== -1) continue;
        for (const k of [x - 1, x + 1, x - 2]) {
          if (k < 0 || k >= n) continue;
          const y = toOther[k]!;
          if (y === -1) continue;
          if (contained(tokensOf(own, x), tokensOf(other, y)) >= 0.8) {
            const list = into.get(y) ?? [k];
            list.push(x);
            into.set(y, list);
            break;
          }
        }
      }
    };
    attach(na, a2b, A, B, splits);
    attach(nb, b2a, B, A, merges);
    return {
      splits: [...splits].map(([before, afterList]) => ({ before, after: afterList })),
      merges: [...merges].map(([afterIdx, beforeList]) => ({ before: beforeList, after: afterIdx })),
    };
  }
}

function kindsCompatible(a: string, b: string): boolean {
  if (a === b) return true;
  // the 2009 rewrite turned some rules into sections and some subrules into rules
  return a !== 'ruling' && b !== 'ruling';
}

/**
 * Assigns lineage ids along a chain of editions in date order: `alignments[k]` aligns
 * edition k with edition k+1. Ids are consecutive integers from `firstId`.
 */
export function assignLineages(
  sizes: number[],
  alignments: Array<Pick<Alignment, 'afterToBefore'>>,
  firstId = 1,
): { ids: Int32Array[]; nextId: number } {
  let next = firstId;
  const ids: Int32Array[] = [];
  sizes.forEach((n, k) => {
    const cur = new Int32Array(n);
    const prev = ids[k - 1];
    const al = k > 0 ? alignments[k - 1] : undefined;
    for (let i = 0; i < n; i++) {
      const j = al ? (al.afterToBefore[i] ?? -1) : -1;
      cur[i] = prev && j !== -1 ? prev[j]! : next++;
    }
    ids.push(cur);
  });
  return { ids, nextId: next };
}
