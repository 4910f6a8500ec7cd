import { LRUCache } from 'lru-cache';
import type { GlossaryRecord } from '../core/records.js';
import { extractReferences } from '../core/references.js';
import { termKey } from '../core/termKey.js';

/** A glossary term used in a text: where it reads, and the entry it names. */
export interface GlossaryMention {
  start: number;
  end: number;
  entry: GlossaryRecord;
}

// Words as glossary terms spell them: letters and digits, with inner hyphens and apostrophes ("Double-Faced", "Can't").
const WORD_RE = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu;
// The longest term, in words, looked for.
const MAX_WORDS = 6;
// Mentions kept (by count): a page's texts are matched once, not on every request (about 40 bytes a mention).
const MEMO_MENTIONS = 50_000;
const NONE: readonly GlossaryMention[] = [];

/** termKey of a word as WORD_RE reads it (no spaces, no quotation marks; an apostrophe may be curly), without its regex tests. */
function wordKey(word: string): string {
  const k = word.toLowerCase();
  return k.includes('’') ? k.replace(/’/g, "'") : k;
}

/**
 * Finds the glossary terms of one edition in texts: whole words that are the term's (termKey, word by word), longest term
 * first, a plural "s" allowed, each term at most once per text. Obsolete entries, compound
 * headings ("Active Player, Nonactive Player Order") and terms of two letters or fewer are not looked for.
 */
export class GlossaryMatcher {
  private readonly terms = new Map<string, GlossaryRecord>();
  /** The first n words of every term ("attacking", "attacking creature"): where a longer match may still start. */
  private readonly prefixes = new Set<string>();
  /** Terms whose sense belongs to multiplayer or casual play (their definitions cite rules of parts 8 and 9 only), with those parts. */
  private readonly senses = new Map<GlossaryRecord, Set<string>>();
  /** Mentions of texts matched before, by text then by the part of the rule they are of (`where`'s first character). */
  private readonly memo = new LRUCache<string, Map<string, readonly GlossaryMention[]>>({
    maxSize: MEMO_MENTIONS,
    sizeCalculation: (m) => {
      let n = 1;
      for (const x of m.values()) n += x.length;
      return n;
    },
  });

  constructor(entries: readonly GlossaryRecord[]) {
    for (const g of entries) {
      if (/\(obsolete\)|,/i.test(g.term)) continue;
      const key = (g.term.match(WORD_RE) ?? []).map(termKey).join(' ');
      const words = key.split(' ');
      // one- and two-letter terms read as ordinary words
      if (key.length <= 2 || words.length > MAX_WORDS || this.terms.has(key)) continue;
      this.terms.set(key, g);
      const parts = new Set(extractReferences(g.definition).map((r) => r.target.charAt(0)));
      if (parts.size > 0 && [...parts].every((p) => p === '8' || p === '9')) this.senses.set(g, parts);
      for (let n = 1; n < words.length; n++) this.prefixes.add(words.slice(0, n).join(' '));
    }
  }

  private lookup(key: string): GlossaryRecord | undefined {
    const exact = this.terms.get(key);
    if (exact || !key.endsWith('s')) return exact;
    if (key.endsWith('ies')) return this.terms.get(`${key.slice(0, -3)}y`);
    return this.terms.get(key.slice(0, -1)) ?? (key.endsWith('es') ? this.terms.get(key.slice(0, -2)) : undefined);
  }

  /**
   * The terms used in a text, in text order; `skip` leaves out one entry (a definition does not cite itself). A term
   * of multiplayer or casual play ("Variant": "…the style of a multiplayer game. See rule 800.2") is found only in the
   * text of a rule (`where`) of the parts its definition cites: elsewhere the word has its everyday sense ("a variant
   * of trample", 702.19c).
   */
  mentions(text: string, skip?: GlossaryRecord, where?: string): readonly GlossaryMention[] {
    if (skip !== undefined) return this.match(text, skip, where);
    const part = where?.charAt(0) ?? '';
    let byPart = this.memo.get(text);
    const hit = byPart?.get(part);
    if (hit) return hit;
    const found = this.match(text, undefined, where);
    byPart = new Map(byPart ?? []).set(part, found.length === 0 ? NONE : found);
    // (re-set: its size has grown)
    this.memo.set(text, byPart);
    return found;
  }

  private match(text: string, skip: GlossaryRecord | undefined, where: string | undefined): GlossaryMention[] {
    const words = [...text.matchAll(WORD_RE)].map((m) => ({ start: m.index, end: m.index + m[0].length, key: wordKey(m[0]) }));
    const out: GlossaryMention[] = [];
    const seen = new Set<GlossaryRecord>();
    for (let i = 0; i < words.length;) {
      let found: { n: number; entry: GlossaryRecord } | null = null;
      let key = '';
      for (let n = 1; n <= MAX_WORDS && i + n <= words.length; n++) {
        const w = words[i + n - 1]!;
        // a term's words are separated by spaces only
        if (n > 1 && !/^ +$/.test(text.slice(words[i + n - 2]!.end, w.start))) break;
        key = n === 1 ? w.key : `${key} ${w.key}`;
        const entry = this.lookup(key);
        if (entry) found = { n, entry };
        if (!this.prefixes.has(key)) break;
      }
      const sense = found ? this.senses.get(found.entry) : undefined;
      if (found && sense && !(where !== undefined && sense.has(where.charAt(0)))) found = null;
      if (found && found.entry !== skip && !seen.has(found.entry)) {
        seen.add(found.entry);
        out.push({ start: words[i]!.start, end: words[i + found.n - 1]!.end, entry: found.entry });
        i += found.n;
      } else i++;
    }
    return out;
  }
}
