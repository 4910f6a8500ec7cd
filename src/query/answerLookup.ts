import type { EditionInfo, GlossaryRecord, KeywordRecord, RuleRecord, SearchHitRecord, TextRefRecord } from '../core/records.js';
import { compareNumbers } from '../core/ruleNumber.js';
import { closestTerms, nearestNumbers, typoBudget } from '../core/suggest.js';
import { expandAbbreviation } from './abbreviations.js';
import { parseQuery } from './parseQuery.js';
import { QueryError } from './QueryError.js';

/** What a lookup reads (KnowledgeBase, which calls answerLookup: named here so that this file does not import it). */
interface LookupReader {
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
type LookupKind = 'rule' | 'range' | 'example' | 'keyword' | 'glossary' | 'fuzzy' | 'search' | 'none';

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

/**
 * Answers a bot's lookup in one edition: a number (with its subrules), a
 * range, a keyword (its defining rule with subrules), a glossary term (with
 * the rules it points to) or a misspelling (best match plus suggestions).
 * Throws BAD_USER_INPUT for unreadable queries and NOT_FOUND for unknown numbers.
 */
export function answerLookup(reader: LookupReader, edition: EditionInfo, q: string): LookupAnswer {
  const parsed = parseQuery(q);
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
    case 'term':
      return answerTerm(reader, edition, parsed.term, base);
  }
}

function answerTerm(
  reader: LookupReader,
  edition: EditionInfo,
  term: string,
  base: Pick<LookupAnswer, 'query' | 'edition' | 'glossary' | 'suggestions' | 'example' | 'duplicated'>,
): LookupAnswer {
  for (const full of expandAbbreviation(term)) {
    if (reader.glossaryTerm(edition.id, full) || sectionTitled(reader, edition, full)) return answerTerm(reader, edition, full, base);
  }
  const keywords = reader.keywords(edition.id);
  const lc = term.toLowerCase();
  const kw = keywords.find((k) => k.name.toLowerCase() === lc);
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
  const glossary = reader.glossary(edition.id);
  const candidates = [...keywords.map((k) => k.name), ...glossary.map((g) => g.term)];
  const close = closestTerms(term, candidates, 6, typoBudget(term));
  const best = close[0];
  if (best) {
    const inner = answerTerm(reader, edition, best.value, base);
    return {
      ...inner,
      query: base.query,
      kind: 'fuzzy',
      suggestions: close.slice(1).map((s) => s.value),
    };
  }
  const hits = reader.search(edition.id, term, { limit: 5 });
  const rules: RuleRecord[] = [];
  for (const h of hits) if (h.rule && !rules.some((r) => r.versionId === h.rule!.versionId)) rules.push(h.rule);
  const suggestions = closestTerms(term, candidates, 3, typoBudget(term) + 1).map((s) => s.value);
  if (rules.length > 0) return { ...base, kind: 'search', matched: null, rules, suggestions };
  return { ...base, kind: 'none', matched: null, rules: [], suggestions };
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
