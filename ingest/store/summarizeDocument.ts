import { FINDING_CODES } from '../parse/checkStructure.js';
import { hash53 } from './hash53.js';
import type { TextHashes } from './textHashes.js';
import type { DocumentFamily, ParsedDocument } from '../../src/core/types.js';
import { isPolicyFamily, splitUnitText } from '../../src/core/policyUnit.js';
import type { Heading } from './renditionOf.js';

/** Counts of what an edition holds. */
export interface EditionCounts {
  parts: number;
  sections: number;
  rules: number;
  examples: number;
  glossary: number;
}

/**
 * What the ingest's main thread needs of a parsed complete document to file, compare and report
 * it: everything but its content, which stays on the parse worker until the copy is stored.
 */
export interface DocumentSummary {
  family: DocumentFamily;
  format: string;
  effectiveDate: string | null;
  counts: EditionCounts;
  unaccounted: number;
  warnings: ParsedDocument['warnings'];
  /** The completeness checks' findings in it ("line: code: message"). */
  findings: string[];
  /** Each rule's and glossary entry's normalized-text hashes, keyed by number or term (see entries). */
  entries: Float64Array;
  /**
   * A tournament document's units, number and title (to tell which edition a rendition renders; see renditionOf); none
   * for the CR. A unit's title is its text's first line once the worker has made it so (see unitText).
   */
  headings: Heading[];
}

/** The summary of a parsed document, from its text hashes. */
export function summarizeDocument(doc: ParsedDocument, hashes: TextHashes): DocumentSummary {
  return {
    family: doc.family,
    format: doc.format,
    effectiveDate: doc.effectiveDate,
    counts: countsOf(doc),
    unaccounted: doc.accounting.unaccounted.length,
    warnings: doc.warnings,
    findings: findingsOf(doc),
    entries: entries(doc, hashes),
    headings: isPolicyFamily(doc.family) ? doc.rules.map((r) => [r.number, r.title ?? splitUnitText(r.text).title] as const) : [],
  };
}

/** The completeness checks' findings in a document, as "line: code: message". */
export function findingsOf(doc: ParsedDocument): string[] {
  return doc.warnings.filter((w) => FINDING_CODES.has(w.code)).map((w) => `${w.line ?? '-'}: ${w.code}: ${w.message}`);
}

/**
 * Each rule's (with its examples) and glossary entry's normalized-text hash (from the document's
 * text hashes, in storedTexts order), keyed by number or term, for comparing two files of an edition
 * (see countDiffering): [hash53 of the key, hash of the texts] pairs, sorted by key, one per key (the last).
 */
function entries(doc: ParsedDocument, hashes: TextHashes): Float64Array {
  const keys: string[] = [];
  const values: number[] = [];
  const norm = hashes.normH;
  let k = 0;
  for (const r of doc.rules) {
    keys.push(r.number);
    const text = norm[k++]!;
    if (r.examples.length === 0) values.push(text);
    else {
      const parts = [text];
      for (let e = 0; e < r.examples.length; e++) parts.push(norm[k++]!);
      values.push(hash53(parts.join(',')));
    }
  }
  for (const g of doc.glossary) {
    keys.push(`glossary:${g.term.toLowerCase()}`);
    values.push(norm[k++]!);
  }
  // the Rulings Summaries' notes, by section (see storedTexts)
  for (const r of doc.rules) {
    if (!r.notes || r.notes.length === 0) continue;
    const parts: number[] = [];
    for (let n = 0; n < r.notes.length; n++) parts.push(norm[k++]!);
    keys.push(`notes:${r.number}`);
    values.push(hash53(parts.join(',')));
  }
  if (k !== norm.length) throw new Error(`entries: ${norm.length} text hashes do not match the document's texts`);
  // as numbers, a few bytes each instead of a map of strings (an ingest keeps one for each edition)
  const h = Float64Array.from(keys, hash53);
  // by key, and of the entries of one key the last (as a map keeps it) first
  const order = keys.map((_, i) => i).sort((a, b) => (h[a]! < h[b]! ? -1 : h[a]! > h[b]! ? 1 : b - a));
  const out = new Float64Array(order.length * 2);
  let n = 0;
  for (const i of order) {
    if (n > 0 && out[2 * n - 2] === h[i]) continue;
    out[2 * n] = h[i]!;
    out[2 * n + 1] = values[i]!;
    n++;
  }
  return n === order.length ? out : out.slice(0, 2 * n);
}

/** How many entries (see entries) differ after normalization, or exist on one side only. */
export function countDiffering(a: Float64Array, b: Float64Array): number {
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      if (a[i + 1] !== b[j + 1]) n++;
      i += 2;
      j += 2;
    } else if (a[i]! < b[j]!) {
      n++;
      i += 2;
    } else {
      n++;
      j += 2;
    }
  }
  return n + (a.length - i) / 2 + (b.length - j) / 2;
}

function countsOf(doc: ParsedDocument): EditionCounts {
  let sections = 0;
  let examples = 0;
  for (const r of doc.rules) {
    if (r.kind === 'section') sections++;
    examples += r.examples.length;
  }
  return { parts: doc.parts.length, sections, rules: doc.rules.length - sections, examples, glossary: doc.glossary.length };
}
