import type { AlignState } from './AlignState.js';
import { chooseMatching } from './chooseMatching.js';
import { isTitle, kindsCompatible, sampleDf, tokensOf } from './Side.js';

/**
 * Pairs rules left unpaired by their distinctive words (TF-IDF cosine): candidates from an inverted index,
 * then parents by their children, children under aligned parents, rules in the gaps between aligned
 * neighbours; twice, as each round's pairs give the next one context.
 */
export function similarityPasses(st: AlignState): void {
  // Document frequencies from a stride sample of both editions.
  st.dfA = sampleDf(st.A);
  st.dfB = sampleDf(st.B);
  st.docs = st.A.docs + st.B.docs;
  // a token in at most ~1% of rules is distinctive: a keyword name, not "triggered ability"
  st.rareDf = Math.max(2, st.docs * 0.01);
  st.normsA = new Float64Array(st.na);
  st.normsB = new Float64Array(st.nb);
  globalPass(st);
  childrenPass(st);
  siblingsPass(st);
  gapPass(st);
  globalPass(st);
  childrenPass(st);
  siblingsPass(st);
}

// Candidate generation through an inverted index of distinctive tokens of unpaired `before` rules.
function globalPass(st: AlignState): void {
  const { A, B, a2b, b2a, na, nb } = st;
  st.computeSlots();
  const postings = new Map<string, number[]>();
  for (let j = 0; j < nb; j++) {
    if (b2a[j] !== -1) continue;
    for (const [w, c] of tokensOf(B, j)) {
      if (c < 1 || !st.isRare(w)) continue;
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
      const f = st.idf(w);
      for (const j of p) acc.set(j, (acc.get(j) ?? 0) + f);
    }
    // only the few old rules sharing the most distinctive words are compared in full (and
    // those tied with the last of them: one shared word can be all there is)
    const ranked = [...acc].sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    let cut = Math.min(8, ranked.length);
    while (cut < ranked.length && cut < 32 && ranked[cut]![1] === ranked[cut - 1]![1]) cut++;
    const top = ranked.slice(0, cut);
    for (const [j] of top) {
      const s = st.scored(i, j, st.parentAgreement(i, j) === 1 ? st.minCtx + 0.1 : st.minSim);
      if (s >= 0) cands.push([i, j, s]);
    }
  }
  st.assign(cands, 'similar');
}

// Unpaired rules between two anchors that keep their order are compared with a lower threshold;
// the one rule keeping its number in such a slot continues even when reworded.
function gapPass(st: AlignState): void {
  const { A, B, a2b, b2a, na, nb, before, after, minCtx } = st;
  st.computeSlots();
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
        const s = st.scored(x, j, minCtx);
        if (s >= 0) cands.push([x, j, s]);
        else if (after[x]!.number === before[j]!.number && kindsCompatible(after[x]!.kind, before[j]!.kind)) {
          const { cos } = st.cosine(x, j);
          // under the same (aligned) parent: a new keyword's boilerplate in a deleted one's slot is not it
          const bothTop = A.parentIdx[x] === -1 && B.parentIdx[j] === -1;
          if (cos >= 0.15 && (bothTop || st.parentAgreement(x, j) === 1)) slot.push([x, j, cos]);
        }
      }
    }
  }
  st.assign(cands, 'context');
  st.assign(slot, 'slot');
}

// A rule whose children mostly continue one old rule's children continues that rule
// (one child's vote is enough only with a similar title).
function childrenPass(st: AlignState): void {
  const { A, B, a2b, b2a, na, before, after } = st;
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
      if (bestV >= 2 || st.cosine(i, best).cos >= st.minCtx) st.pair(i, best, 'children', bestV / paired);
    }
  }
}

// Unpaired children of aligned parents are compared with each other; a child paired by
// similarity outside its parent's counterpart moves to a sibling that scores clearly better.
function siblingsPass(st: AlignState): void {
  const { A, B, a2b, b2a, na, method, score } = st;
  st.computeSlots();
  const cands: Array<[number, number, number]> = [];
  for (let i = 0; i < na; i++) {
    const pa = A.parentIdx[i]!;
    if (pa === -1 || a2b[pa] === -1) continue;
    const movable = a2b[i] !== -1 && (method[i] === 'similar' || method[i] === 'context') && st.parentAgreement(i, a2b[i]!) !== 1;
    if (a2b[i] !== -1 && !movable) continue;
    for (const j of B.children[a2b[pa]!]!) {
      if (b2a[j] !== -1) continue;
      const s = st.scored(i, j, st.minCtx + 0.1);
      if (s >= 0 && (!movable || s > score[i]! + 0.15)) cands.push([i, j, s]);
    }
  }
  for (const [i, j, s] of chooseMatching(cands)) {
    if (b2a[j] !== -1) continue;
    if (a2b[i] !== -1) st.unpair(i);
    st.pair(i, j, 'context', s);
  }
}
