import type { AlignMethod, AlignState } from './AlignState.js';
import { hasHashes, normOf, REF_MASK_RE, type Side } from './Side.js';

// Pairs the rules whose key no other unpaired rule on its side has.
function uniquePass(st: AlignState, key: (s: Side, k: number) => string | number, how: AlignMethod): void {
  const { A, B, a2b, b2a, na, nb } = st;
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
    if (i !== -1 && j !== undefined && j !== -1) st.pair(i, j, how);
  }
}

/**
 * Exact keys, unique on both sides: raw text (its hash when both editions have hashes), then the same
 * number and text (duplicated texts: "General", "Deleted."), then normalized text, then normalized text
 * with rule numbers masked.
 */
export function exactPasses(st: AlignState): void {
  const { before, after, a2b, b2a, na, nb } = st;
  const hashed = hasHashes(before) && hasHashes(after);
  uniquePass(st, hashed ? (s, k) => s.rules[k]!.h! : (s, k) => s.rules[k]!.text, 'exact');
  const bByNum = new Map<string, number>();
  for (let j = 0; j < nb; j++) if (b2a[j] === -1) bByNum.set(before[j]!.number, j);
  for (let i = 0; i < na; i++) {
    if (a2b[i] !== -1) continue;
    const j = bByNum.get(after[i]!.number);
    if (j !== undefined && b2a[j] === -1 && before[j]!.text === after[i]!.text) st.pair(i, j, 'same-number');
  }
  uniquePass(st, hashed ? (s, k) => s.rules[k]!.normH! : normOf, 'normalized');
  uniquePass(st, (s, k) => normOf(s, k).replace(REF_MASK_RE, '#'), 'references');
}
