import { NUMBER_PATTERNS, joinNumber, normalizeNumber } from '../core/ruleNumber.js';

/** What a bot's lookup text was read as, before looking at any edition. */
export type ParsedQuery =
  | { kind: 'number'; number: string }
  | { kind: 'range'; from: string; to: string }
  /** One example of a rule: "702.19b ex 2", "702.19b example 2" (1-based). */
  | { kind: 'example'; number: string; index: number }
  | { kind: 'term'; term: string }
  | { kind: 'invalid'; reason: string };

const { prefix: PREFIX, parts: NUM, rangeEnd } = NUMBER_PATTERNS;
// "601.2a-h", "601.2a–601.2h", "601.2a to h", "601.2-4"
const RANGE_RE = new RegExp(`^${PREFIX}${NUM}\\s*(?:[-‐‑‒–—]|\\s+(?:to|through|thru)\\s+)\\s*${rangeEnd}\\.?$`, 'i');

// "702.19b ex 2", "702.19b, example #2", "702.19b e.g. 2"
const EXAMPLE_RE = new RegExp(`^${PREFIX}${NUM}\\.?,?\\s*(?:ex|example|e\\.?g)\\.?\\s*#?\\s*(\\d{1,2})\\.?$`, 'i');
// How people ask: "define dies", "what is a token?", "what does trample mean", "meaning of priority"
const QUESTION_RE =
  /^(?:define|definition(?: of)?|meaning of|explain|what(?:'s|’s|s| is| are)|what does|what do)\s+(?:(?:an?|the)\s+)?(.+?)(?:\s+mean)?\s*\??$/i;

/** Longest term a lookup accepts. */
const MAX_QUERY_LENGTH = 100;

const num = joinNumber;

/**
 * Reads a lookup query: a rule number ("702.19b", "CR 702.19b", "rule 702.19"),
 * a range ("601.2a-h", en dash too), one example ("702.19b ex 2") or a term
 * (keyword, glossary term, abbreviation or a misspelling of one, decided against
 * an edition later); a question around it ("define dies", "what is a token?")
 * is read as what it asks about. Pure.
 */
export function parseQuery(q: string): ParsedQuery {
  const text = q.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (text.length === 0) return { kind: 'invalid', reason: 'the query is empty' };
  if (text.length > MAX_QUERY_LENGTH) {
    return { kind: 'invalid', reason: `the query is longer than ${MAX_QUERY_LENGTH} characters` };
  }
  const q2 = QUESTION_RE.exec(text);
  if (q2 && q2[1]!.trim() !== '') return parseQuery(q2[1]!);
  const n = normalizeNumber(text);
  if (n !== null) return { kind: 'number', number: n };
  const ex = EXAMPLE_RE.exec(text);
  if (ex) {
    const index = Number(ex[4]);
    if (index < 1) return { kind: 'invalid', reason: 'examples are numbered from 1' };
    return { kind: 'example', number: num(ex[1]!, ex[2], ex[3]), index };
  }
  const r = RANGE_RE.exec(text);
  if (r) {
    const [, sec, rule, letter, toSec, toRule, toLetter, toNum, toLetterOnly] = r;
    const from = num(sec!, rule, letter);
    let to: string | null = null;
    if (toSec !== undefined) to = num(toSec, toRule, toLetter);
    else if (toLetterOnly !== undefined && rule !== undefined && letter !== undefined) {
      to = `${sec}.${rule}${toLetterOnly.toLowerCase()}`;
    } else if (toNum !== undefined && rule !== undefined && letter === undefined) to = `${sec}.${toNum}`;
    else if (toNum !== undefined && rule === undefined) to = toNum;
    if (to === null) return { kind: 'invalid', reason: `cannot read "${text}" as a range of rules` };
    return { kind: 'range', from, to };
  }
  const term = text.replace(/^["'“‘([]+|["'”’)\].?!]+$/g, '').trim();
  if (term.length === 0 || !/[\p{L}\p{N}]/u.test(term)) {
    return { kind: 'invalid', reason: `"${text}" is neither a rule number nor a term` };
  }
  return { kind: 'term', term };
}
