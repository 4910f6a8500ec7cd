import type { AlignState } from './AlignState.js';
import { commonPrefix, continuation, normOf, sampleDf, tokensOf, type Side } from './Side.js';

/**
 * Splits and merges: an old rule paired by similarity with one fragment of its text moves to the nearby
 * fragment that opens as it did; an unpaired rule nearly all of whose words are in its paired neighbour's
 * counterpart came out of it (a split) or went into it (a merge); the continuation of each is the fragment
 * carrying the old lead text, else the number.
 */
export function findSplitsMerges(st: AlignState): { splits: Array<{ before: number; after: number[] }>; merges: Array<{ before: number[]; after: number }> } {
  const { A, B, a2b, b2a, na, nb, before, after, method, score } = st;
  // A new rule whose words are nearly all in its neighbour's predecessor came out of it.
  const splits = new Map<number, number[]>();
  const merges = new Map<number, number[]>();
  st.dfA = sampleDf(A);
  st.dfB = sampleDf(B);
  st.rareDf = Math.max(2, (A.docs + B.docs) * 0.01);
  // An old rule paired by similarity with one fragment of its text goes to the nearby fragment that
  // opens as it did (504.3's tail matched best, but 707.5 keeps its opening sentence).
  for (let i = 0; i < na; i++) {
    const j = a2b[i]!;
    if (j === -1 || (method[i] !== 'similar' && method[i] !== 'context')) continue;
    const own = commonPrefix(normOf(A, i), normOf(B, j));
    for (let x = Math.max(0, i - 3); x <= Math.min(na - 1, i + 3); x++) {
      if (x === i || A.parentIdx[x] !== A.parentIdx[i]) continue;
      // (a fragment already continuing a rule of its parent's counterpart stays)
      if (a2b[x] !== -1 && (score[x]! >= score[i]! || st.parentAgreement(x, a2b[x]!) === 1)) continue;
      const lead = commonPrefix(normOf(A, x), normOf(B, j));
      if (lead < 40 || lead <= own + 10) continue;
      const s = score[i]!;
      st.unpair(i);
      if (a2b[x] !== -1) st.unpair(x);
      st.pair(x, j, 'split', s);
      break;
    }
  }
  attach(st, na, a2b, A, B, splits);
  attach(st, nb, b2a, B, A, merges);
  // The continuation of a split is the fragment that carries the old lead text (then its number).
  for (const [j, list] of splits) {
    const best = continuation(
      list,
      (x) => commonPrefix(normOf(A, x), normOf(B, j)),
      (x) => after[x]!.number === before[j]!.number,
    );
    if (best === list[0] || a2b[list[0]!] !== j || a2b[best] !== -1) continue;
    const s = score[list[0]!]!;
    st.unpair(list[0]!);
    st.pair(best, j, 'split', s);
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
    st.unpair(i);
    st.pair(i, best, 'split', s);
    list.splice(list.indexOf(best), 1);
    list.unshift(best);
  }
  return {
    splits: [...splits].map(([before, afterList]) => ({ before, after: afterList })),
    merges: [...merges].map(([afterIdx, beforeList]) => ({ before: beforeList, after: afterIdx })),
  };
}

// An unpaired rule on one side joins the counterpart of its nearest paired neighbour when
// nearly all its words are in it: a new rule split off an old one, or an old one merged in.
function attach(st: AlignState, n: number, toOther: Int32Array, own: Side, other: Side, into: Map<number, number[]>): void {
  for (let x = 0; x < n; x++) {
    if (toOther[x] !== -1) continue;
    for (const k of [x - 1, x + 1, x - 2, x + 2, x - 3, x + 3]) {
      if (k < 0 || k >= n) continue;
      const y = toOther[k]!;
      if (y === -1) continue;
      if (st.contained(tokensOf(own, x), tokensOf(other, y)) >= 0.8) {
        const list = into.get(y) ?? [k];
        list.push(x);
        into.set(y, list);
        break;
      }
    }
  }
}
