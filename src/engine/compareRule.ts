import { normalizeText } from '../core/normalize.js';
import { extractReferences } from '../core/references.js';
import type { Reference } from '../core/references.js';

/** How a rule's text changed between two editions. */
export type TextChange = 'none' | 'references' | 'substantive';

/** Resolves a reference target ("706.10") in one edition to a lineage id, or null when dangling. */
export type ResolveLineage = (target: string) => number | null;

export interface RuleTextComparison {
  textChange: TextChange;
  /**
   * True when the texts differ only in typography (quotes, dashes, ™, italics markers, spacing):
   * `textChange` is then 'none' but the rule still shows up in a diff.
   */
  typography: boolean;
}

// Lowercase letters survive normalizeText unchanged and never occur in rule text like this.
const MASK = ' zqxrefzqx ';

interface Mention {
  start: number;
  end: number;
  targets: string[];
}

// References whose spans overlap (the targets of one range) form one mention.
function mentions(refs: Reference[]): Mention[] {
  const out: Mention[] = [];
  for (const r of [...refs].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) {
      last.targets.push(r.target);
      last.end = Math.max(last.end, r.end);
    } else out.push({ start: r.start, end: r.end, targets: [r.target] });
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

/**
 * Reference-aware comparison of one rule's text in two editions. A change made only of
 * reference numbers, each old and new reference resolving to the same lineage, is 'references';
 * a reference that now resolves to another rule, or any other wording change, is 'substantive'.
 * Typography-only differences are 'none' with `typography` set.
 */
export function compareRuleText(
  beforeText: string,
  afterText: string,
  resolveBefore: ResolveLineage,
  resolveAfter: ResolveLineage,
  beforeRefs: Reference[] = extractReferences(beforeText),
  afterRefs: Reference[] = extractReferences(afterText),
): RuleTextComparison {
  if (beforeText === afterText) return { textChange: 'none', typography: false };
  if (normalizeText(beforeText) === normalizeText(afterText)) {
    // same wording, but a same-numbered reference may now point at another rule
    const same = sameTargets(mentions(beforeRefs), mentions(afterRefs), resolveBefore, resolveAfter);
    return { textChange: same ? 'none' : 'substantive', typography: true };
  }
  return compareReworded(beforeText, afterText, resolveBefore, resolveAfter, beforeRefs, afterRefs);
}

/**
 * compareRuleText for two texts whose normalized forms are known to differ (say, their stored
 * hashes differ): the same verdict, without normalizing the whole texts, and normalizing nothing
 * when the words around the references are unchanged.
 */
export function compareReworded(
  beforeText: string,
  afterText: string,
  resolveBefore: ResolveLineage,
  resolveAfter: ResolveLineage,
  beforeRefs: Reference[],
  afterRefs: Reference[],
): RuleTextComparison {
  const mb = mentions(beforeRefs);
  const ma = mentions(afterRefs);
  // with no mentions the masked texts are the texts themselves, whose normalized forms differ
  if (mb.length !== ma.length || mb.length === 0) return SUBSTANTIVE;
  const xb = masked(beforeText, mb);
  const xa = masked(afterText, ma);
  if (xb !== xa && normalizeText(xb) !== normalizeText(xa)) return SUBSTANTIVE;
  return { textChange: sameTargets(mb, ma, resolveBefore, resolveAfter) ? 'references' : 'substantive', typography: false };
}

function sameTargets(mb: Mention[], ma: Mention[], rb: ResolveLineage, ra: ResolveLineage): boolean {
  if (mb.length !== ma.length) return false;
  for (let k = 0; k < mb.length; k++) {
    const tb = mb[k]!.targets;
    const ta = ma[k]!.targets;
    if (tb.length !== ta.length) return false;
    for (let x = 0; x < tb.length; x++) {
      const lb = rb(tb[x]!);
      const la = ra(ta[x]!);
      // a dangling reference only stays "the same" if it still reads the same
      if (lb === null || la === null) {
        if (tb[x] !== ta[x] || lb !== la) return false;
      } else if (lb !== la) return false;
    }
  }
  return true;
}
