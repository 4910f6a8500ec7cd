import type { ParsedDocument, ParseWarning } from '../../src/core/types.js';

// Characters no edition is meant to hold in its text: controls, invisible or odd spaces, separators
// that survived decoding. A new layout shows up here first.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ODD = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00a0\u00ad\u2000-\u200f\u2028-\u202f\u2060\ufeff]/;
// eslint-disable-next-line no-control-regex -- the same, and U+FFFD
const ODD_OR_LOST = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00a0\u00ad\u2000-\u200f\u2028-\u202f\u2060\ufeff\ufffd]/;

/** The codes of the warnings checkStructure gives. */
export const STRUCTURE_CODES = new Set(['missing-parent', 'section-jump', 'odd-character', 'lost-characters']);

/**
 * The warning codes of the completeness checks: findings that something may be lost, swallowed or
 * misfiled, or that the layout is one the parser does not know (the parsers report the first two).
 */
export const FINDING_CODES = new Set(['swallowed-rule', 'swallowed-term', 'missing-parent', 'section-jump', 'odd-character']);

/**
 * Checks a parsed Comprehensive Rules document for what line accounting cannot see: a rule whose
 * parent is missing, a section counter that jumps within a part, and characters of a layout the
 * parser does not know (control, invisible or non-breaking spaces, leftover separators). `source`,
 * the decoded text, lets a document whose source holds no such character skip that search.
 */
export function checkStructure(doc: ParsedDocument, source?: string): ParseWarning[] {
  const out: ParseWarning[] = [];
  const numbers = new Set(doc.rules.map((r) => r.number));
  let prevSection: number | null = null;
  let lost = 0;
  // a source holding none of these characters needs no look at each text
  const clean = source !== undefined && !ODD_OR_LOST.test(source);
  const scan = (text: string, line: number, where: () => string): void => {
    if (clean || !ODD_OR_LOST.test(text)) return;
    oddCharacter(text, line, where, out);
    for (let k = text.indexOf('\ufffd'); k !== -1; k = text.indexOf('\ufffd', k + 1)) lost++;
  };
  for (const r of doc.rules) {
    if (r.parent !== null && !numbers.has(r.parent)) {
      out.push({ line: r.line, code: 'missing-parent', message: `rule ${r.number} has no ${r.kind === 'subrule' ? 'rule' : 'section'} ${r.parent}` });
    }
    if (r.kind === 'section') {
      const s = Number(r.number);
      if (prevSection !== null && Math.floor(s / 100) === Math.floor(prevSection / 100) && s !== prevSection + 1) {
        out.push({ line: r.line, code: 'section-jump', message: `section ${r.number} follows section ${prevSection}` });
      }
      prevSection = s;
    }
    scan(r.text, r.line, () => `rule ${r.number}`);
    for (const e of r.examples) scan(e, r.line, () => `rule ${r.number}`);
  }
  for (const g of doc.glossary) {
    scan(g.term, g.line, () => `glossary term "${g.term}"`);
    scan(g.definition, g.line, () => `glossary term "${g.term}"`);
  }
  // U+FFFD: characters an earlier conversion of the file lost; a feature of that copy, said once
  if (lost > 0)
    out.push({ line: null, code: 'lost-characters', message: `${lost} characters of the rules and glossary were lost before this copy was made (U+FFFD)` });
  return out;
}

function oddCharacter(text: string, line: number, where: () => string, out: ParseWarning[]): void {
  const m = ODD.exec(text);
  if (!m) return;
  const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  const around = text.slice(Math.max(0, m.index - 20), m.index + 20).replace(ODD, '·');
  out.push({ line, code: 'odd-character', message: `${where()} holds U+${code}: "${around}"` });
}
