import type { Family } from './records.js';
import { expandRange, referenceKind, type Reference } from './references.js';
import { NUMBER_PATTERNS } from './ruleNumber.js';

/** A reference to another document: the target's family before a colon ("cr:704.3", "mtr:4.2", "ipg:2.1"). */
const CROSS_RE = /^(cr|mtr|ipg):(.+)$/;

/** A stored reference target split into the document it names (null: the citing text's own) and its number. */
export function refTarget(target: string): { family: Family | null; number: string } {
  const m = CROSS_RE.exec(target);
  return m ? { family: m[1] as Family, number: m[2]! } : { family: null, number: target };
}

/** The stored target of a reference to `number` of `family` from a text of `own`: bare when the same document. */
function targetOf(family: Family, own: Family, number: string): string {
  return family === own ? number : `${family}:${number}`;
}

// A document's name as the tournament documents (and people) write it. Unstored documents (the Universal
// Tournament Rules and Floor Rules of 2001-2003) are matched so that their sections are not read as the text's own.
const DOC = String.raw`(?:the\s+)?(?:(?:DCI\s+)?Universal\s+Tournament\s+Rules|UTR|(?:Magic\s+|DCI\s+)?Floor\s+Rules|(?:Magic(?::\s*The\s+Gathering)?\s+)?(?:Comprehensive\s+Rules|Tournament\s+Rules|Infraction\s+Procedure\s+Guide)|MTR|IPG|CR)`;
// One number: a tournament section (4.2, 151), a CR rule (704.5aa), a part (6).
const NUM = NUMBER_PATTERNS.number;
// A list of numbers and ranges: "4.1", "70–74", "4.1 and 4.3", "1.1-1.4".
const LIST = String.raw`${NUM}(?:\s*[-–—]\s*${NUM}|(?:\s*,\s*|\s+(?:and|or|to|through)\s+)${NUM})*`;
// A mention: an abbreviation or a lead word before the list ("MTR 4.1", "MTR section 4.3", "CR 117.3a", "section 5", "rule 704.3").
const MENTION_RE = new RegExp(String.raw`\b(?:(MTR|IPG|CR)\s+(?:sections?\s+)?|(sections?|rules?)\s+)(${LIST})(?![\d.]*\d)`, 'gi');
const AFTER_RE = new RegExp(String.raw`^,?\s+(?:of|in)\s+(${DOC})\b`, 'i');
const BEFORE_RE = new RegExp(String.raw`(${DOC})\s*(?:[,:]\s*|\(\s*(?:see\s+)?)$`, 'i');
const ITEM_RE = new RegExp(NUM, 'g');

/** The family a document name names, 'other' for a document not stored (UTR, Floor Rules). */
function familyOfName(name: string): Family | 'other' {
  const n = name.replace(/\s+/g, ' ').toLowerCase();
  if (/universal|utr|floor/.test(n)) return 'other';
  if (/comprehensive|^(?:the )?cr$/.test(n)) return 'cr';
  if (/procedure|ipg/.test(n)) return 'ipg';
  return 'mtr';
}

/**
 * Cross-references in a text of the MTR or IPG (`own`), or explicit mentions of them in any text: "section 4.2"
 * (the text's own document, a bare target), "MTR 4.1", "section 4.1 of the Magic Tournament Rules", "IPG 2.1",
 * "Comprehensive Rules, rule 103.4", "CR 117.3a", "section 6 of the Comprehensive Rules", a CR-shaped "rule 704.3";
 * other documents' targets carry their family ("mtr:4.1", "cr:103.4"). Sections of documents not stored
 * (the Universal Tournament Rules) are left out. With `explicitOnly`, only mentions naming a document. Pure.
 */
export function extractPolicyReferences(text: string, own: Family, explicitOnly = false): Reference[] {
  const out: Reference[] = [];
  MENTION_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = MENTION_RE.exec(text)) !== null) {
    const start = m.index;
    const end = start + m[0].length;
    const abbr = m[1];
    const lead = (m[2] ?? '').toLowerCase();
    const list = m[3]!;
    let family: Family | 'other' | null = abbr ? familyOfName(abbr) : null;
    if (family === null) {
      const after = AFTER_RE.exec(text.slice(end, end + 80));
      if (after) family = familyOfName(after[1]!);
    }
    if (family === null) {
      const before = BEFORE_RE.exec(text.slice(Math.max(0, start - 80), start));
      if (before) family = familyOfName(before[1]!);
    }
    if (family === null && explicitOnly) continue;
    const items = [...list.matchAll(ITEM_RE)].map((x) => x[0]);
    // a CR-shaped number ("704.3", "101.5a") with no document named is a CR rule; the MTR and IPG number 1.1-10.x
    if (family === null) family = /^\d{3}\.\d/.test(items[0]!) && own !== 'cr' ? 'cr' : lead.startsWith('rule') && own === 'cr' ? 'cr' : own;
    if (family === 'other') continue;
    const targets: string[] = [];
    const ranges = list.split(/\s*,\s*|\s+(?:and|or)\s+/);
    for (const r of ranges) {
      const ends = [...r.matchAll(ITEM_RE)].map((x) => x[0]);
      if (ends.length === 2 && /[-–—]|\bto\b|\bthrough\b/.test(r)) targets.push(...expandRange(ends[0]!, ends[1]!));
      else targets.push(...ends);
    }
    for (const t of targets) {
      const kind = family === 'cr' ? referenceKind(t) : 'section';
      out.push({ target: targetOf(family, own, t), kind, start, end });
    }
  }
  return out;
}
