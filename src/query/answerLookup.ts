import type { EditionInfo, GlossaryRecord, KeywordRecord, RuleRecord, SearchHitRecord, TextRefRecord } from '../core/records.js';
import { resolveEdition } from '../core/resolveEdition.js';
import { compareNumbers, inScope } from '../core/ruleNumber.js';
import { closestTerms, editDistance, nearestNumbers, typoBudget } from '../core/suggest.js';
import { expandAbbreviation, keywordAlias } from './abbreviations.js';
import { editionNamedIn, parseQuery, topicWords } from './parseQuery.js';
import { QueryError } from './QueryError.js';
import { isPolicyFamily, splitUnitText } from '../core/policyUnit.js';

/** What a lookup reads (KnowledgeBase, which calls answerLookup: named here so that this file does not import it). */
interface LookupReader {
  editions(): EditionInfo[];
  rule(editionId: number, number: string): RuleRecord | null;
  sameNumber(rule: RuleRecord): RuleRecord[];
  rulesByNumbers(editionId: number, numbers: readonly string[]): Array<RuleRecord | null>;
  numbers(editionId: number): string[];
  descendants(rule: RuleRecord): RuleRecord[];
  childrenOf(editionId: number, numbers: readonly string[]): Map<string, RuleRecord[]>;
  rulesPage(editionId: number, opts: { after: number; limit: number }): RuleRecord[];
  sections(editionId: number): Array<{ number: string; title: string }>;
  examples(rule: RuleRecord): string[];
  refsOfTexts(ids: readonly number[]): Map<number, TextRefRecord[]>;
  glossaryTerm(editionId: number, term: string): GlossaryRecord | null;
  glossary(editionId: number): GlossaryRecord[];
  keywords(editionId: number): KeywordRecord[];
  search(editionId: number, text: string, opts: { limit: number }): SearchHitRecord[];
}

/** How a lookup was answered. */
type LookupKind = 'rule' | 'range' | 'example' | 'keyword' | 'interaction' | 'glossary' | 'fuzzy' | 'search' | 'none';

/** One example of a rule, picked by a lookup ("702.19b ex 2"); index is 1-based. */
interface LookupExample {
  index: number;
  text: string;
}

/** A lookup answer, before formatting. */
export interface LookupAnswer {
  query: string;
  kind: LookupKind;
  /** What the query was read as: a number, a range, a keyword, a term. */
  matched: string | null;
  edition: EditionInfo;
  /** Rules to show, in document order. */
  rules: RuleRecord[];
  glossary: GlossaryRecord[];
  suggestions: string[];
  /** The example asked for (kind example), else null. */
  example: LookupExample | null;
  /** A number the edition prints more than once (2024-09-20's 702.175): every rule of it is in `rules`. */
  duplicated: string | null;
}

/** Section rules answer with their direct children only: a whole section would not fit anywhere. */
function withBelow(reader: LookupReader, rule: RuleRecord): RuleRecord[] {
  if (rule.kind === 'section') return [rule, ...(reader.childrenOf(rule.editionId, [rule.number]).get(rule.number) ?? [])];
  return [rule, ...reader.descendants(rule)];
}

function notFoundNumber(reader: LookupReader, edition: EditionInfo, number: string): never {
  const suggestions = nearestNumbers(number, reader.numbers(edition.id));
  throw new QueryError('NOT_FOUND', `no rule ${number} in the ${edition.effectiveDate} edition`, {
    suggestions,
    edition: edition.effectiveDate,
  });
}

/** A search text's edition: the one it names ("trample in 2010", "702.19b (AFR)", as a lookup reads it), else `asked`; and the text without it. */
export function searchScope(reader: LookupReader, asked: EditionInfo, q: string): { edition: EditionInfo; text: string; named: boolean } {
  const named = (arg: string): EditionInfo | null => resolveEdition(reader.editions(), arg, asked.family).edition;
  const found = editionNamedIn(q, (arg) => named(arg) !== null);
  const edition = found.edition === null ? null : named(found.edition);
  return edition ? { edition, text: found.text, named: true } : { edition: asked, text: q, named: false };
}

/**
 * Answers a bot's lookup in one edition: a number (with its subrules), a
 * range, a keyword (its defining rule with subrules), a glossary term (with
 * the rules it points to) or a misspelling (best match plus suggestions).
 * Throws BAD_USER_INPUT for unreadable queries and NOT_FOUND for unknown numbers.
 */
export function answerLookup(reader: LookupReader, asked: EditionInfo, q: string): LookupAnswer {
  const named = (arg: string): EditionInfo | null => resolveEdition(reader.editions(), arg, asked.family).edition;
  const parsed = parseQuery(q, (arg) => named(arg) !== null);
  // an edition named in the query ("702.19b in 2010", "trample (AFR)") is the one answered from
  const edition = (parsed.edition !== undefined ? named(parsed.edition) : null) ?? asked;
  const base = { query: q, edition, glossary: [] as GlossaryRecord[], suggestions: [] as string[], example: null, duplicated: null };
  switch (parsed.kind) {
    case 'invalid':
      throw new QueryError('BAD_INPUT', parsed.reason, { argument: 'q' });
    case 'number': {
      const rule = reader.rule(edition.id, parsed.number);
      if (!rule) notFoundNumber(reader, edition, parsed.number);
      const all = reader.sameNumber(rule);
      if (all.length > 1) return { ...base, kind: 'rule', matched: rule.number, rules: all.flatMap((r) => withBelow(reader, r)), duplicated: rule.number };
      return { ...base, kind: 'rule', matched: rule.number, rules: withBelow(reader, rule) };
    }
    case 'example': {
      const rule = reader.rule(edition.id, parsed.number);
      if (!rule) notFoundNumber(reader, edition, parsed.number);
      const examples = reader.examples(rule);
      const text = examples[parsed.index - 1];
      if (text === undefined) {
        const has = examples.length === 0 ? 'has no examples' : examples.length === 1 ? 'has 1 example' : `has ${examples.length} examples`;
        throw new QueryError('NOT_FOUND', `rule ${rule.number} ${has} in the ${edition.effectiveDate} edition`, { edition: edition.effectiveDate });
      }
      return { ...base, kind: 'example', matched: `${rule.number} example ${parsed.index}`, rules: [rule], example: { index: parsed.index, text } };
    }
    case 'range': {
      const { from, to } = parsed;
      const [a, b] = compareNumbers(from, to) <= 0 ? [from, to] : [to, from];
      const first = reader.rule(edition.id, a);
      if (!first) notFoundNumber(reader, edition, a);
      const rules = [first];
      for (const r of reader.rulesPage(edition.id, { after: first.ord, limit: 500 })) {
        if (compareNumbers(r.number, b) > 0 && !(r.parent !== null && rules.some((x) => x.number === r.parent))) break;
        rules.push(r);
      }
      if (!rules.some((r) => r.number === b)) notFoundNumber(reader, edition, b);
      return { ...base, kind: 'range', matched: `${a}-${b}`, rules };
    }
    case 'term': {
      const unit = isPolicyFamily(edition.family) ? unitTitled(reader, edition, parsed.term) : null;
      if (unit) return { ...base, kind: 'rule', matched: unit.number, rules: [unit] };
      return answerTerm(reader, edition, parsed.term, base);
    }
  }
}

/**
 * The unit of a tournament document whose title names the words ("missed trigger" → IPG 2.1 "Game Play
 * Error — Missed Trigger"): a title that is the words, else the first that ends with them, else the
 * first holding them; null when none does.
 */
function unitTitled(reader: LookupReader, edition: EditionInfo, words: string): RuleRecord | null {
  const w = words.toLowerCase().replace(/\s+/g, ' ').trim();
  if (w.length < 3) return null;
  const units = reader.rulesPage(edition.id, { after: -1, limit: 5000 }).map((r) => ({ r, title: splitUnitText(r.text).title.toLowerCase() }));
  const found = units.find((u) => u.title === w) ?? units.find((u) => u.title.endsWith(w)) ?? units.find((u) => u.title.includes(w));
  return found?.r ?? null;
}

type Base = Pick<LookupAnswer, 'query' | 'edition' | 'glossary' | 'suggestions' | 'example' | 'duplicated'>;

function answerTerm(reader: LookupReader, edition: EditionInfo, term: string, base: Base): LookupAnswer {
  const exact = answerExact(reader, edition, term, base);
  if (exact) return exact;
  const words = topicWords(term);
  const topic = words.join(' ');
  // "how do layers work" asks about layers, "the legend rule" is the Legend Rule
  if (topic !== '' && topic !== term.toLowerCase()) {
    const t = answerExact(reader, edition, topic, base);
    if (t) return t;
  }
  const keywords = reader.keywords(edition.id);
  const found = keywordsIn(words, keywords);
  if (found.keywords.length >= 2) return answerInteraction(reader, edition, found.keywords, base);
  // "protection from red", "equip {2}", "ward—pay 3 life": a keyword with its argument
  if (found.keywords.length === 1 && found.rest.every(isArgumentWord)) {
    return answerExact(reader, edition, found.keywords[0]!.name, base)!;
  }
  const index = termIndex(reader, edition.id);
  // a glossary term making up most of the question: "when does a player lose the game"
  const inside = glossaryIn(words, index);
  if (inside) return answerExact(reader, edition, inside.term, base)!;
  const candidates = index.candidates;
  // a misspelt name: the query, or its topic, a few words long (a longer question is no typo of a name)
  const short = (t: string): boolean => t !== '' && t.split(' ').length <= 4;
  for (const t of [term, ...(topic !== term.toLowerCase() ? [topic] : [])].filter(short)) {
    const close = closestTerms(t, candidates, 6, typoBudget(t));
    const best = close[0];
    if (best) {
      const inner = answerTerm(reader, edition, best.value, base);
      return { ...inner, query: base.query, kind: 'fuzzy', suggestions: close.slice(1).map((s) => s.value) };
    }
  }
  const hits = reader.search(edition.id, searchWording(words) || term, { limit: 5 });
  const rules: RuleRecord[] = [];
  for (const h of hits) if (h.rule && !rules.some((r) => r.versionId === h.rule!.versionId)) rules.push(h.rule);
  const suggestions = closestTerms(term, candidates, 3, typoBudget(term) + 1).map((s) => s.value);
  if (rules.length > 0) return { ...base, kind: 'search', matched: null, rules, suggestions };
  return { ...base, kind: 'none', matched: null, rules: [], suggestions };
}

/** The glossary entry whose words (stop words aside) stand together in `words` and make up more than half of them; the longest. */
function glossaryIn(words: readonly string[], index: TermIndex): GlossaryRecord | null {
  if (words.length < 2) return null;
  const text = ` ${words.join(' ')} `;
  let best: { g: GlossaryRecord; n: number } | null = null;
  for (const { g, key, n } of index.keys) {
    if (n === 0 || 2 * n <= words.length || (best && n <= best.n)) continue;
    if (text.includes(key)) best = { g, n };
  }
  return best?.g ?? null;
}

/** What a lookup of free text compares with, per edition: its glossary, the terms as topic words (" legend rule "), every name. */
interface TermIndex {
  glossary: GlossaryRecord[];
  keys: Array<{ g: GlossaryRecord; key: string; n: number }>;
  candidates: string[];
}

// made once per reader and edition (the reader is a KnowledgeBase: its glossary records are built on each call)
const termIndexes = new WeakMap<LookupReader, Map<number, TermIndex>>();
function termIndex(reader: LookupReader, editionId: number): TermIndex {
  let byEdition = termIndexes.get(reader);
  if (!byEdition) termIndexes.set(reader, (byEdition = new Map<number, TermIndex>()));
  let t = byEdition.get(editionId);
  if (!t) {
    const glossary = reader.glossary(editionId);
    const keys = glossary.map((g) => {
      const words = topicWords(g.term.replace(/\(.*\)/g, ''));
      return { g, key: ` ${words.join(' ')} `, n: words.length };
    });
    const candidates = [...reader.keywords(editionId).map((k) => k.name), ...glossary.map((g) => g.term)];
    byEdition.set(editionId, (t = { glossary, keys, candidates }));
  }
  return t;
}

/** How the rules word what people type: "empty library" is "a library with no cards in it", "10 poison counters" "ten". */
const WORDINGS: ReadonlyArray<[RegExp, string]> = [
  [/\bempty library\b/g, 'library with no cards'],
  [/\b0\/0\b/g, 'toughness 0'],
  [/\bzero\b/g, '0'],
  ...['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].map((w, i): [RegExp, string] => [new RegExp(`\\b${i + 2}\\b`, 'g'), w]),
];

/** A question's topic words as the search reads them. */
function searchWording(words: readonly string[]): string {
  let t = words.join(' ');
  for (const [re, to] of WORDINGS) t = t.replace(re, to);
  return t;
}

/** A keyword, glossary term, abbreviation or section title named exactly (case aside), or null. */
function answerExact(reader: LookupReader, edition: EditionInfo, term: string, base: Base): LookupAnswer | null {
  for (const full of expandAbbreviation(term)) {
    if (reader.glossaryTerm(edition.id, full) || sectionTitled(reader, edition, full)) return answerExact(reader, edition, full, base);
  }
  const lc = term.toLowerCase();
  const kw = reader.keywords(edition.id).find((k) => k.name.toLowerCase() === lc);
  const gloss = reader.glossaryTerm(edition.id, term);
  if (kw) {
    const rule = reader.rule(edition.id, kw.number);
    if (rule) {
      return { ...base, kind: 'keyword', matched: kw.name, rules: withBelow(reader, rule), glossary: gloss ? [gloss] : [] };
    }
  }
  if (gloss) {
    // "APNAP Order: See Active Player, Nonactive Player Order." answers with the entry it points to
    const see = /^See ([^.]{1,80})\.$/.exec(gloss.definition.trim());
    const target = see ? reader.glossaryTerm(edition.id, see[1]!) : null;
    const shown = target ? [gloss, target] : [gloss];
    return { ...base, kind: 'glossary', matched: (target ?? gloss).term, rules: rulesCitedBy(reader, target ?? gloss), glossary: shown };
  }
  const section = sectionTitled(reader, edition, term);
  if (section) return { ...base, kind: 'rule', matched: section.number, rules: withBelow(reader, section) };
  return null;
}

/** Words that may follow a keyword as its argument: "from red", "{2}", "pay 3 life", "over planeswalkers". */
const ARGUMENT_WORDS = new Set(
  (
    'from over white blue black red green colorless multicolored monocolored everything artifacts artifact creatures creature ' +
    'enchantments enchantment instants sorceries lands land planeswalkers planeswalker players player permanents spells pay life ' +
    'mana x w u b r g c each all'
  ).split(' '),
);
const isArgumentWord = (w: string): boolean => ARGUMENT_WORDS.has(w) || /^\d+$/.test(w);

/** Keywords named in a query's words (longest names first, a word in one name only), and the words left. */
function keywordsIn(words: readonly string[], keywords: readonly KeywordRecord[]): { keywords: KeywordRecord[]; rest: string[] } {
  // keyword abilities only: many keyword actions are everyday words ("counter", "double", "search")
  const names = keywords
    .filter((k) => k.kind === 'ability')
    .map((k) => ({ k, parts: k.name.toLowerCase().split(/\s+/) }))
    .sort((a, b) => b.parts.length - a.parts.length);
  const budget = (name: string): number => (name.length <= 8 ? 1 : 2);
  const ws = words.flatMap((w) => (keywordAlias(w) ?? w).split(' '));
  const used = new Array<boolean>(ws.length).fill(false);
  const hits: Array<{ k: KeywordRecord; at: number }> = [];
  for (const { k, parts } of names) {
    for (let i = 0; i + parts.length <= ws.length; i++) {
      if (used.slice(i, i + parts.length).some(Boolean)) continue;
      const span = ws.slice(i, i + parts.length).join(' ');
      const name = parts.join(' ');
      // a typo of a name of five letters or more ("deathtuch", "trampel")
      if (span === name || (name.length >= 5 && editDistance(span, name, budget(name)) <= budget(name))) {
        if (!hits.some((h) => h.k.number === k.number)) hits.push({ k, at: i });
        for (let j = i; j < i + parts.length; j++) used[j] = true;
      }
    }
  }
  return { keywords: hits.sort((a, b) => a.at - b.at).map((h) => h.k), rest: ws.filter((_, i) => !used[i]) };
}

/** Words too common in keyword rules to say how two keywords meet. */
const GENERIC = new Set(
  (
    'ability abilities static triggered activated keyword creature creatures permanent permanents object objects instance instances ' +
    'multiple redundant same rule rules see means mean that’s it’s player players card cards spell spells effect effects one two ' +
    'other another any each all can can’t isn’t doesn’t which whose while this that with from into only even though'
  ).split(' '),
);
const stem = (w: string): string => w.replace(/(?:ing|ed|es|s|ment|ments)$/, '');
const signature = (text: string): Set<string> => new Set((text.toLowerCase().match(/[\p{L}’'-]{4,}/gu) ?? []).filter((w) => !GENERIC.has(w)).map(stem));

/**
 * Two or more keywords asked about together ("does deathtouch work with trample"): the rules where
 * they meet first (a rule of one naming the other, or sharing most of the other's vocabulary, like
 * 702.2c for deathtouch and trample), then each keyword's defining rule.
 */
function answerInteraction(reader: LookupReader, edition: EditionInfo, kws: readonly KeywordRecord[], base: Base): LookupAnswer {
  const trees = kws.slice(0, 3).flatMap((k) => {
    const rule = reader.rule(edition.id, k.number);
    return rule ? [{ k, rule, subs: reader.descendants(rule) }] : [];
  });
  const sigs = trees.map((t) => {
    const sig = new Set<string>();
    for (const r of t.subs) for (const w of signature(r.text)) sig.add(w);
    for (const w of signature(t.k.name)) sig.delete(w);
    return sig;
  });
  // what each keyword's rules cite: a rule of one citing what the other cites (702.2c cites 510.1c–d, trample 510) is where they meet
  const refs = reader.refsOfTexts(trees.flatMap((t) => t.subs.map((r) => r.textId)));
  const cites = (r: RuleRecord): string[] => (refs.get(r.textId) ?? []).map((x) => x.target);
  const cited = trees.map((t) => t.subs.flatMap(cites));
  const scored: Array<{ rule: RuleRecord; score: number }> = [];
  trees.forEach((t, i) => {
    for (const r of t.subs) {
      const lc = r.text.toLowerCase();
      const examples = reader.examples(r).join(' ').toLowerCase();
      let score = 0;
      const own = signature(r.text);
      trees.forEach((o, j) => {
        if (j === i) return;
        const name = o.k.name.toLowerCase();
        if (lc.includes(name)) score += 10;
        else if (examples.includes(name)) score += 3;
        // the share of the rule's words the other keyword's rules use: long rules share many by chance
        let shared = 0;
        for (const w of own) if (sigs[j]!.has(w)) shared++;
        score += (4 * shared) / Math.sqrt(own.size + 1);
        if (cites(r).some((a) => cited[j]!.some((b) => inScope(a, b) || inScope(b, a)))) score += 6;
      });
      scored.push({ rule: r, score });
    }
  });
  scored.sort((a, b) => b.score - a.score || a.rule.ord - b.rule.ord);
  const rules: RuleRecord[] = [];
  const add = (r: RuleRecord): void => {
    if (!rules.some((x) => x.versionId === r.versionId)) rules.push(r);
  };
  for (const s of scored.slice(0, 2)) if (s.score >= 2) add(s.rule);
  for (const t of trees) {
    add(t.rule);
    if (t.subs[0]) add(t.subs[0]);
  }
  return { ...base, kind: 'interaction', matched: trees.map((t) => t.k.name).join(' + '), rules };
}

/**
 * Rules a glossary definition points to ("See rule 700.4"), in the same edition; a section
 * ("See rule 704, State-Based Actions") comes with its first rules, not just its title.
 */
function rulesCitedBy(reader: LookupReader, g: GlossaryRecord): RuleRecord[] {
  const refs = reader.refsOfTexts([g.textId]).get(g.textId) ?? [];
  const numbers = [...new Set(refs.map((r) => r.target))];
  const out: RuleRecord[] = [];
  const seen = new Set<number>();
  for (const r of reader.rulesByNumbers(g.editionId, numbers)) {
    if (!r) continue;
    for (const x of r.kind === 'section' ? withBelow(reader, r) : [r]) {
      if (!seen.has(x.ord)) out.push(x);
      seen.add(x.ord);
    }
  }
  return out;
}

/** The section of an edition titled `title` ("Power/Toughness", "casting spells"), or null. */
function sectionTitled(reader: LookupReader, edition: EditionInfo, title: string): RuleRecord | null {
  const t = title.trim().toLowerCase();
  const s = reader.sections(edition.id).find((x) => x.title.toLowerCase() === t);
  return s ? reader.rule(edition.id, s.number) : null;
}
