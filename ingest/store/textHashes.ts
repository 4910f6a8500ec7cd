import { hash53 } from './hash53.js';
import { normalizeText } from '../../src/core/normalize.js';
import type { AlignRule } from '../../src/engine/align.js';
import type { ParsedDocument, RuleNode } from '../../src/core/types.js';

/**
 * The texts of a document in the order the writer stores them: each rule's text and then its
 * examples, then each glossary definition, then each section's notes (Rulings Summaries).
 */
export function storedTexts(doc: ParsedDocument): string[] {
  const out: string[] = [];
  for (const r of doc.rules) out.push(r.text, ...r.examples);
  for (const g of doc.glossary) out.push(g.definition);
  for (const r of doc.rules) if (r.notes) for (const n of r.notes) out.push(n.text);
  return out;
}

/**
 * hash53 of every text of a document (in storedTexts order) and of its normalized form: text i hashes to
 * `h[i]`, normalized to `normH[i]`. Computed where the document is parsed, so the writer only looks them up;
 * typed arrays, so they cost 16 bytes a text, travel in a serialized copy and are freed with it.
 */
export interface TextHashes {
  h: Float64Array;
  normH: Float64Array;
}

/** hash53 of a text and of its normalized form. */
export function hashPair(text: string, normalize: (s: string) => string = normalizeText): [h: number, normH: number] {
  return [hash53(text), hash53(normalize(text))];
}

/**
 * The TextHashes of a document. `pair` (given each text and its position) may be memoized by the caller
 * (consecutive editions repeat most texts).
 */
export function textHashes(doc: ParsedDocument, pair: (text: string, index: number) => readonly [number, number] = (t) => hashPair(t)): TextHashes {
  const texts = storedTexts(doc);
  const h = new Float64Array(texts.length);
  const normH = new Float64Array(texts.length);
  // an index loop and two reads: destructuring the pair went through the array iterator for each text
  for (let i = 0; i < texts.length; i++) {
    const p = pair(texts[i]!, i);
    h[i] = p[0];
    normH[i] = p[1];
  }
  return { h, normH };
}

/** A document's rules as the aligner takes them, with their texts' hashes. */
export function hashedRules(rules: RuleNode[], hashes: TextHashes): AlignRule[] {
  const out = new Array<AlignRule>(rules.length);
  let k = 0;
  for (let i = 0; i < rules.length; i++) {
    const { number, text, parent, kind, examples } = rules[i]!;
    out[i] = { number, text, parent, kind, examples, h: hashes.h[k]!, normH: hashes.normH[k]! };
    // a rule's text, then its examples'
    k += 1 + examples.length;
  }
  return out;
}
