import { checkStructure, STRUCTURE_CODES } from '../parse/checkStructure.js';
import type { AmbiguousWord, ParsedDocument, ParseWarning } from '../../src/core/types.js';

/** How one ambiguous word was settled. */
interface WordDecision {
  read: string;
  /** The reading the corpus attests, when it is not the one decoded. */
  repaired: { word: string; codePage: string } | null;
  /** True when no reading is attested anywhere else: the word is kept as decoded. */
  unattested: boolean;
}

/** Every word whose attestation decides an ambiguity: what was read and every other reading. */
export function wordsToCheck(ambiguous: readonly AmbiguousWord[]): string[] {
  return [...new Set(ambiguous.flatMap((a) => [a.read, ...a.alternatives.map((x) => x.word)]))];
}

/**
 * Settles a word by evidence: kept as decoded when that reading is attested elsewhere (or no
 * reading is), repaired when exactly one other code page gives a word attested elsewhere.
 */
function decideWord(a: AmbiguousWord, attested: ReadonlySet<string>): WordDecision {
  if (attested.has(a.read)) return { read: a.read, repaired: null, unattested: false };
  const hits = a.alternatives.filter((x) => attested.has(x.word));
  if (hits.length === 1) return { read: a.read, repaired: { word: hits[0]!.word, codePage: hits[0]!.codePage }, unattested: false };
  return { read: a.read, repaired: null, unattested: true };
}

/**
 * Repairs a parsed document's ambiguous words by the corpus's evidence (`attested`: the words
 * other editions hold), in every stored text; each repair, and each word no edition settles,
 * becomes a warning at its line. Returns how many words were repaired.
 */
export function repairAmbiguousWords(doc: ParsedDocument, ambiguous: readonly AmbiguousWord[], attested: ReadonlySet<string>): number {
  const replace = new Map<string, string>();
  const warnings: ParseWarning[] = [];
  for (const a of ambiguous) {
    const d = decideWord(a, attested);
    if (d.repaired) {
      replace.set(a.read, d.repaired.word);
      warnings.push({
        line: a.line,
        code: 'code-page-repair',
        message: `"${a.read}" holds a byte of another code page: read as "${d.repaired.word}" (${d.repaired.codePage}), the reading other editions attest`,
      });
    } else if (d.unattested) {
      const others = a.alternatives.map((x) => `"${x.word}" (${x.codePage})`).join(', ');
      warnings.push({
        line: a.line,
        code: 'ambiguous-byte',
        message: `"${a.read}" holds a byte no typography explains and no other edition settles (could be ${others}): kept as read`,
      });
    }
  }
  if (replace.size > 0) {
    const re = wholeWords([...replace.keys()]);
    const fix = (s: string): string => s.replace(re, (m) => replace.get(m) ?? m);
    const fixNull = (s: string | null): string | null => (s === null ? null : fix(s));
    for (const r of doc.rules) {
      r.text = fix(r.text);
      r.examples = r.examples.map(fix);
      if (r.notes) r.notes = r.notes.map((n) => ({ ...n, text: fix(n.text) }));
    }
    for (const g of doc.glossary) {
      g.term = fix(g.term);
      g.definition = fix(g.definition);
    }
    for (const p of doc.parts) p.title = fix(p.title);
    for (const e of doc.index) e.topic = fix(e.topic);
    doc.abilityWords = doc.abilityWords.map(fix);
    doc.title = fixNull(doc.title);
    doc.introduction = fixNull(doc.introduction);
    doc.credits = fixNull(doc.credits);
    if (doc.family === 'cr') {
      // the checks describe the document as stored: run them again on the repaired texts
      doc.warnings = [...doc.warnings.filter((w) => !STRUCTURE_CODES.has(w.code)), ...checkStructure(doc)];
    }
  }
  doc.warnings.push(...warnings);
  return replace.size;
}

/**
 * A global pattern matching any of `words` as a whole word (no letter on either side). With
 * `overlapping`, a zero-width match captures the word (group 1), so words inside a longer match
 * are found too ("rûf" in "Ma’rûf").
 */
export function wholeWords(words: readonly string[], overlapping = false): RegExp {
  const alternation = [...words]
    .sort((a, b) => b.length - a.length)
    .map((w) => `${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`)
    .join('|');
  return new RegExp(overlapping ? `(?<!\\p{L})(?=(${alternation}))` : `(?<!\\p{L})(?:${alternation})`, 'gu');
}
