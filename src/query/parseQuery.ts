import { NUMBER_PATTERNS, RULE_NUMBER_RE, joinNumber, normalizeNumber, tidyTypedNumbers } from '../core/ruleNumber.js';

/** What a bot's lookup text was read as, before looking at any edition; `edition`: an edition the query named ("in 2010", "AFR"). */
export type ParsedQuery = (
  | { kind: 'number'; number: string }
  | { kind: 'range'; from: string; to: string }
  /** One example of a rule: "702.19b ex 2", "702.19b example 2" (1-based). */
  | { kind: 'example'; number: string; index: number }
  | { kind: 'term'; term: string }
  | { kind: 'invalid'; reason: string }
) & { edition?: string };

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
 * Words that carry no topic: question words, articles, pronouns, auxiliaries, fillers. A lookup
 * drops them before matching ("how do layers work" asks about layers).
 */
const STOP_WORDS = new Set(
  (
    'a an the and or but if then than so of to in on at by for from with without into onto about as is are was were be been being ' +
    'do does did doing done have has had having can could will would shall should may might must ' +
    'i me my we us our you your he him his she her it its they them their this that these those there here ' +
    'what whats what’s which who whom whose when where why how happens happen happened ' +
    'work works working mean means meaning define definition explain say says said ' +
    'please pls thanks thx tell show find get gets use using used vs versus also just only really exactly ever still'
  ).split(' '),
);

/** The words of a query that carry its topic: lowercased, with question and stop words dropped. */
export function topicWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’/-]*/gu) ?? []).filter((w) => !STOP_WORDS.has(w.replace(/[’']s$/, '')));
}

// An edition named in the query: a date, a year, or a set code after "in"/"from", in brackets, or in capitals.
const EDITION_RES: ReadonlyArray<{ re: RegExp; args: (m: string) => string[] }> = [
  { re: /(?:\b(?:in|as of|on|from|at|of)\s+)?[([]?\b(\d{4}-\d{2}-\d{2})\b[)\]]?/i, args: (d) => [d] },
  { re: /(?:\b(?:in|as of|on|from|during)\s+)?[([]?(?<![\d.-])\b(199\d|20\d\d)\b(?![\d.-])[)\]]?/i, args: (y) => [`${y}-01-01`, `${y}-12-31`] },
  { re: /\b(?:in|from|during)\s+(?:the\s+)?([A-Za-z0-9]{2,6})\b/i, args: (c) => [c] },
  { re: /[([]([A-Za-z0-9]{2,6})[)\]]/, args: (c) => [c] },
  { re: /(?<![\w.])([A-Z0-9]*[A-Z][A-Z0-9]*)(?![\w.])/, args: (c) => (c.length >= 2 && c.length <= 6 ? [c] : []) },
];
// set codes that are everyday words in lower case ("in one", "at war"): a set only in capitals
const WORD_CODES = new Set(['one', 'war', 'con', 'eve', 'mor', 'dis', 'all', 'arc', 'ice']);

/** The query without an edition it names, and that edition's argument (for resolveEdition); null when it names none. */
function editionIn(text: string, namesEdition: (arg: string) => boolean): { text: string; edition: string | null } {
  for (const { re, args } of EDITION_RES) {
    const m = re.exec(text);
    if (!m) continue;
    const token = m[1]!;
    if (WORD_CODES.has(token) || (/^[a-z]+$/.test(token) && STOP_WORDS.has(token))) continue;
    const arg = args(token).find(namesEdition);
    const rest = (text.slice(0, m.index) + ' ' + text.slice(m.index + m[0].length)).replace(/\s+/g, ' ').trim();
    if (arg !== undefined && /[\p{L}\p{N}]/u.test(rest)) return { text: rest, edition: arg };
  }
  return { text, edition: null };
}

/** A search text read for an edition it names ("trample in 2010", "702.19b (AFR)"), as parseQuery reads a lookup: the text without it, and the edition's argument or null. Pure. */
export function editionNamedIn(q: string, namesEdition: (arg: string) => boolean): { text: string; edition: string | null } {
  return editionIn(q.normalize('NFC').replace(/\s+/g, ' ').trim(), namesEdition);
}

/** Words around a number that name it as one: "rule 702.19b". */
const NUMBER_WORDS = new Set(['rule', 'rules', 'cr', 'comp', 'section']);
// a number among filler words: "what does 704.5j say", "cr 702.19b please"
const NUMBER_IN_TEXT_RE = new RegExp(`(?<![\\d.])(\\d{3}\\.\\d{1,3}[a-z]{0,2})(?![\\d.]\\d)`, 'i');

/**
 * Reads a lookup query: a rule number ("702.19b", "CR 702.19b", "rule 702.19", pasted as
 * "!cr 702.19b", "702,19b" or "702.19b)"), a range ("601.2a-h", en dash too), one example
 * ("702.19b ex 2") or a term (keyword, glossary term, abbreviation or a misspelling of one,
 * decided against an edition later); a question around it ("define dies", "what is a token?") is
 * read as what it asks about. An edition named anywhere in it ("702.19b in 2010", "(AFR)", "in
 * MH2", "2021-07-01") is taken out when `namesEdition` accepts it. Pure.
 */
export function parseQuery(q: string, namesEdition: (arg: string) => boolean = () => false): ParsedQuery {
  // a number as the rules print it (what links and generated clients send) reads as itself: it names no edition
  // (no capitals, no four digits) and has nothing to tidy
  if (RULE_NUMBER_RE.test(q)) return { kind: 'number', number: q };
  const text0 = q.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (text0.length === 0) return { kind: 'invalid', reason: 'the query is empty' };
  if (text0.length > MAX_QUERY_LENGTH) {
    return { kind: 'invalid', reason: `the query is longer than ${MAX_QUERY_LENGTH} characters` };
  }
  const named = editionIn(text0, namesEdition);
  const parsed = parseText(tidyTypedNumbers(named.text) || named.text);
  return named.edition === null ? parsed : { ...parsed, edition: named.edition };
}

function parseText(text: string): ParsedQuery {
  const q2 = QUESTION_RE.exec(text);
  if (q2 && q2[1]!.trim() !== '') return parseText(tidyTypedNumbers(q2[1]!));
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
  const inText = NUMBER_IN_TEXT_RE.exec(text);
  if (inText && topicWords(text.replace(inText[0], ' ')).every((w) => NUMBER_WORDS.has(w))) return { kind: 'number', number: inText[1]!.toLowerCase() };
  const term = text.replace(/^["'“‘([]+|["'”’)\].?!]+$/g, '').trim();
  if (term.length === 0 || !/[\p{L}\p{N}]/u.test(term)) {
    return { kind: 'invalid', reason: `"${text}" is neither a rule number nor a term` };
  }
  return { kind: 'term', term };
}
