import { letterIndex, splitNumber } from '../core/ruleNumber.js';

/** How a number moved: its whole section, its rule number within the section, or its letter within the rule. */
function shiftOf(from: string, to: string): { kind: 'section' | 'rule' | 'letter'; key: string } | null {
  const a = splitNumber(from);
  const b = splitNumber(to);
  if (a?.section.length !== 3 || b?.section.length !== 3) return null;
  const { section: sa, rule: ra, letters: la } = a;
  const { section: sb, rule: rb, letters: lb } = b;
  if (sa !== sb) return ra === rb && la === lb ? { kind: 'section', key: `${sa}>${sb}` } : null;
  if (ra === undefined || rb === undefined) return null;
  if (ra !== rb) return la === lb ? { kind: 'rule', key: `${sa}:${Number(rb) - Number(ra)}` } : null;
  const ia = letterIndex(la);
  const ib = letterIndex(lb);
  return ia >= 0 && ib >= 0 ? { kind: 'letter', key: `${sa}.${ra}:${ib - ia}` } : null;
}

/**
 * Summarizes the renumbering map: runs of three or more numbers that moved alike (a whole section,
 * rule numbers within a section, letters within a rule) collapse to one line each.
 */
export function summarizeRenumbering(map: Array<{ from: string; to: string }>): string[] {
  const out: string[] = [];
  let k = 0;
  while (k < map.length) {
    const { from, to } = map[k]!;
    const shift = shiftOf(from, to);
    let end = k + 1;
    while (shift && end < map.length) {
      const s = shiftOf(map[end]!.from, map[end]!.to);
      if (!s || s.kind !== shift.kind || s.key !== shift.key) break;
      end++;
    }
    const last = map[end - 1]!;
    const n = end - k;
    if (shift && n >= 3) {
      if (shift.kind === 'section') out.push(`${from}–${last.from} → ${to}–${last.to} (section ${from.slice(0, 3)} is now ${to.slice(0, 3)}, ${n} rules)`);
      else if (shift.kind === 'rule') out.push(`${from}–${last.from} → ${to}–${last.to} (${n} rules renumbered within section ${from.slice(0, 3)})`);
      else out.push(`${from}–${splitNumber(last.from)!.letters} → ${to}–${splitNumber(last.to)!.letters} (${n} subrules relettered)`);
    } else for (let x = k; x < end; x++) out.push(`${map[x]!.from} → ${map[x]!.to}`);
    k = end;
  }
  return out;
}
