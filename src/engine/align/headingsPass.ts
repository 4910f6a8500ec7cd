import type { AlignState } from './AlignState.js';
import { sharesWord, tokensOf } from './Side.js';

// Headings pair on their children: a heading whose paired children mostly continue the children
// of one old heading (at least two, and mutually) continues that heading, whatever its title matched.
export function headingsPass(st: AlignState): void {
  const { A, B, a2b, b2a, na, nb, before, after } = st;
  for (let round = 0; round < 3; round++) {
    let moved = 0;
    for (let i = 0; i < na; i++) {
      if (A.children[i]!.length === 0) continue;
      const j = st.majority(A.children[i]!, a2b, B.parentIdx, (p) => before[p]!.number === after[i]!.number);
      if (j === -1 || a2b[i] === j) continue;
      if (st.majority(B.children[j]!, b2a, A.parentIdx, (p) => after[p]!.number === before[j]!.number) !== i) continue;
      // a title, not a rule that took over the old heading's children ("Declare Attackers Step" → 308.2)
      if (after[i]!.kind !== before[j]!.kind || !sharesWord(tokensOf(A, i), tokensOf(B, j))) continue;
      // only pairs no child supports are undone
      const other = b2a[j]!;
      if ((other !== -1 && st.support(other, j) > 0) || (a2b[i] !== -1 && st.support(i, a2b[i]!) > 0)) continue;
      if (other !== -1) st.unpair(other);
      st.unpair(i);
      st.pair(i, j, 'children', 1);
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
    if (st.support(i, j) > 0 && sharesWord(tokensOf(A, i), tokensOf(B, j))) st.pair(i, j, 'children', st.support(i, j) / A.children[i]!.length);
  }
}
