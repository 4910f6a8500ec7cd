import { citationDate } from './parseRulings.js';

/** A reference found in Rulings Summaries text, with its character span. */
export interface RulingsReference {
  /** 'rulings': a Rulings Summaries entry; 'cr': a CR rule; 'cr-edition': a CR edition by date. */
  kind: 'rulings' | 'cr' | 'cr-edition';
  /** "A.1.8", "E.13.Ruling.13", "601.2b", "702" or an ISO date for 'cr-edition'. */
  target: string;
  start: number;
  end: number;
}

const RULINGS_RE = /(?<![\w.])[A-Z]\.\d+(?:\.Ruling\.\d+|\.\d+)*(?![\w])/g;
const CR_RE = /(?<![\w.])\d{3}\.\d{1,3}[a-z]?(?![\w])/g;
// A bare section number only counts right after "rule"/"rules" or in a list that follows one.
const CR_SECTION_RE = /\brules?\s+(\d{3})(?!\w|\.\d)/gi;
const COMPRULES_RE = /\[\s*Comp(?:rehensive)?\s*Rules\s+(\d{1,4})\/(\d{1,2})\/(\d{1,4})\s*\]/gi;

/**
 * Finds references in Rulings Summaries text: to other entries ("See Rule A.1.8"), to CR rules
 * ("(See rule 601.2b)") and to CR editions ("[CompRules 1999/11/01]"), in text order.
 */
export function rulingsReferences(text: string): RulingsReference[] {
  const out: RulingsReference[] = [];
  for (const m of text.matchAll(COMPRULES_RE)) {
    const date = citationDate(m[1]!, m[2]!, m[3]!);
    if (date) out.push({ kind: 'cr-edition', target: date, start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(RULINGS_RE)) {
    out.push({ kind: 'rulings', target: m[0], start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(CR_RE)) {
    out.push({ kind: 'cr', target: m[0], start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(CR_SECTION_RE)) {
    const start = m.index + m[0].length - m[1]!.length;
    out.push({ kind: 'cr', target: m[1]!, start, end: start + m[1]!.length });
  }
  return out.sort((a, b) => a.start - b.start);
}
