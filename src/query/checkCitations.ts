import type { EditionInfo, Family, RuleRecord } from '../core/records.js';
import { extractPolicyReferences, refTarget } from '../core/policyReferences.js';
import { familyLabel } from '../core/policyUnit.js';
import { familyInQuery } from './familyQuery.js';
import { extractReferences } from '../core/references.js';
import { compareRuleText, textClass, type TextClass } from '../engine/compareRule.js';
import { sameRuleIn } from './currentPlace.js';
import { ruleNumberArg } from './edgeArgs.js';
import type { KnowledgeBase } from './KnowledgeBase.js';
import { QueryError } from './QueryError.js';

/** What became of a cited rule: same number and text, another number, same number but new text, no longer there. */
type CitationStatus = 'same' | 'moved' | 'changed' | 'gone' | 'unknown';

/** A rule as a citation sees it. */
interface CitedRule {
  number: string;
  text: string;
}

/** One citation checked. */
export interface CitationCheck {
  /** The number as cited ("706.10"; a tournament document's section with its name, "IPG 2.1"). */
  cited: string;
  /** The document cited, checked in its own editions (in force at asOf and at to). */
  family: Family;
  /** A title quoted beside the number ("702.19 (Trample)"), or null. */
  title: string | null;
  /** The rule the number named in the `asOf` edition; null when it named none (status unknown). */
  then: CitedRule | null;
  status: CitationStatus;
  /** The same rule (same lineage) in the target edition, under whatever number it has now; null when gone. */
  now: CitedRule | null;
  /** Effective date of the first edition without the rule, when gone (null when it never came back into view). */
  goneSince: string | null;
  /** How its text changed between then and now: only reference numbers, or more; null when gone or unknown. */
  textChange: TextClass | null;
  /** Whether the quoted title is still found in the text of the rule now or of a rule it sits under; null without a title or a rule now. */
  titleMatches: boolean | null;
}

/** What to check: a text to find citations in, or numbers; the edition they were written against. */
export interface CitationQuery {
  text?: string | null;
  numbers?: readonly string[] | null;
  /** When the citations were written: a date, an effective date, a set code. */
  asOf: string | null | undefined;
  /** Where to follow them to (default latest). */
  to?: string | null;
}

/** The citations of a text or list, checked from one edition to another. */
export interface CitationReport {
  asOf: EditionInfo;
  to: EditionInfo;
  /** Both editions pinned (the answer never changes). */
  exact: boolean;
  citations: CitationCheck[];
}

/** Longest text checked, in characters. */
const MAX_CITATION_TEXT = 200_000;
/** Most citations checked in one request. */
const MAX_CITATIONS = 1000;

// A title quoted or in parentheses right after a number: 702.19 "Trample", 702.19 (“Trample”), 702.19 (Trample).
const QUOTED_RE = /^\s*,?\s*\(?\s*["“]([^"“”\n]{1,80}?)[,.]?["”]/;
const PAREN_RE = /^\s*\(\s*([\p{L}][^()\d\n]{0,79}?)\s*\)/u;

interface Found {
  cited: string;
  title: string | null;
  family: Family;
}

/** Citations of rule and section numbers in a text, in order, once each (number and title); "MTR 2.3", "IPG 2.1" name their document. */
function citationsIn(text: string): Found[] {
  const out: Found[] = [];
  const seen = new Set<string>();
  const policy = extractPolicyReferences(text, 'cr', true).filter((r) => refTarget(r.target).family !== null);
  const crRefs = extractReferences(text).filter((r) => r.kind !== 'part' && !policy.some((p) => p.start < r.end && r.start < p.end));
  const refs = [...crRefs, ...policy].sort((a, b) => a.start - b.start || a.end - b.end);
  const spanCount = new Map<string, number>();
  for (const r of refs) spanCount.set(`${r.start}:${r.end}`, (spanCount.get(`${r.start}:${r.end}`) ?? 0) + 1);
  for (const r of refs) {
    let title: string | null = null;
    // a title belongs to a single number, not to a range
    if (spanCount.get(`${r.start}:${r.end}`) === 1) {
      const rest = text.slice(r.end, r.end + 120);
      const m = QUOTED_RE.exec(rest) ?? PAREN_RE.exec(rest);
      title = m ? m[1]!.trim() : null;
    }
    const key = `${r.target}\u0000${title ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const t = refTarget(r.target);
    out.push({ cited: t.number, title, family: t.family ?? 'cr' });
  }
  return out;
}

const norm = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim();

/**
 * Checks citations written against one edition (`asOf`) in another (`to`, default latest): for
 * each cited rule, the rule it named then, where the same rule (its lineage, across renumbering)
 * is now, or since when it is gone, and whether a quoted title still matches. Takes a text (the
 * citations are found in it) or a list of numbers. Throws BAD_INPUT for missing or oversized input.
 */
export function checkCitations(kb: KnowledgeBase, q: CitationQuery): CitationReport {
  const hasText = typeof q.text === 'string';
  const hasNumbers = Array.isArray(q.numbers);
  if (hasText === hasNumbers) throw new QueryError('BAD_INPUT', 'give either "text" or "numbers", not both or neither', { argument: 'text' });
  if (q.asOf === undefined || q.asOf === null || q.asOf.trim() === '') {
    throw new QueryError('BAD_INPUT', '"asOf" is required: the date (or set code) the citations were written against', { argument: 'asOf' });
  }
  let found: Found[];
  if (hasText) {
    const text = q.text!;
    if (text.length > MAX_CITATION_TEXT) throw new QueryError('BAD_INPUT', `"text" is longer than ${MAX_CITATION_TEXT} characters`, { argument: 'text' });
    found = citationsIn(text);
  } else {
    const numbers = q.numbers!;
    if (numbers.length > MAX_CITATIONS) throw new QueryError('BAD_INPUT', `"numbers" holds more than ${MAX_CITATIONS} numbers`, { argument: 'numbers' });
    found = numbers.map((raw) => {
      const named = familyInQuery(String(raw));
      const family = named.family ?? 'cr';
      return { cited: ruleNumberArg(named.text, 'numbers', family), title: null, family };
    });
  }
  if (found.length > MAX_CITATIONS) throw new QueryError('BAD_INPUT', `the text holds more than ${MAX_CITATIONS} citations`, { argument: 'text' });
  // a tournament document's citations are read in its own editions: the stated one (a date) or the one in force then, and its latest
  // the report's editions: the CR's, or (when only tournament documents are cited) the first cited document's
  const primary = found.length === 0 || found.some((f) => f.family === 'cr') ? 'cr' : found[0]!.family;
  const asOf = kb.resolveEdition(q.asOf, primary, 'asOf');
  const to = kb.resolveEdition(q.to, primary, 'to');
  const editions = new Map<Family, { asOf: EditionInfo | null; to: EditionInfo | null; chain: EditionInfo[] }>();
  // an argument's date for another document: a date as given, else the date of the CR edition it named
  const dateOf = (arg: string, cr: EditionInfo): string => (/^\d{4}-\d{2}-\d{2}$/.test(arg.trim()) ? arg.trim() : cr.effectiveDate);
  const scope = (family: Family) => {
    let e = editions.get(family);
    if (!e) {
      const chain = kb.editions().filter((x) => x.family === family && x.official);
      e =
        family === primary
          ? { asOf: asOf.edition, to: to.edition, chain }
          : {
              asOf: kb.editionInForce(family, dateOf(q.asOf!, asOf.edition)),
              to: !q.to || q.to.trim().toLowerCase() === 'latest' ? (chain.at(-1) ?? null) : kb.editionInForce(family, dateOf(q.to, to.edition)),
              chain,
            };
      editions.set(family, e);
    }
    return e;
  };
  const citations = found.map((f) => {
    const e = scope(f.family);
    return checkOne(kb, f, e.asOf, e.to, e.chain);
  });
  return { asOf: asOf.edition, to: to.edition, exact: asOf.exact && to.exact, citations };
}

function checkOne(kb: KnowledgeBase, f: Found, asOf: EditionInfo | null, to: EditionInfo | null, chain: EditionInfo[]): CitationCheck {
  const base = { cited: f.family === 'cr' ? f.cited : `${familyLabel(f.family)} ${f.cited}`, family: f.family, title: f.title };
  const then = asOf && kb.rule(asOf.id, f.cited);
  if (!then || !to) return { ...base, then: null, status: 'unknown', now: null, goneSince: null, textChange: null, titleMatches: null };
  const now = sameRuleIn(kb, then, to);
  const side = (r: RuleRecord): CitedRule => ({ number: r.number, text: r.text });
  if (!now) {
    return { ...base, then: side(then), status: 'gone', now: null, goneSince: goneSince(kb, then, to, chain), textChange: null, titleMatches: null };
  }
  const lineageIn = (e: EditionInfo) => (n: string) => kb.rule(e.id, n)?.lineageId ?? null;
  const textChange = then.text === now.text ? 'none' : textClass(compareRuleText(then.text, now.text, lineageIn(asOf), lineageIn(to)));
  const status: CitationStatus = now.number !== then.number ? 'moved' : then.text !== now.text ? 'changed' : 'same';
  // a title may name the rule itself or what it sits under ("702.19b (Trample)", "707.10 (Copying Objects)")
  const titleMatches = f.title === null ? null : [now, ...kb.ancestors(now)].some((r) => norm(r.text).includes(norm(f.title!)));
  return { ...base, then: side(then), status, now: side(now), goneSince: null, textChange, titleMatches };
}

/** The first official edition after the rule's last appearance up to `to`. */
function goneSince(kb: KnowledgeBase, rule: RuleRecord, to: EditionInfo, chain: EditionInfo[]): string | null {
  const present = new Set(rule.lineageId === null ? [rule.editionId] : kb.snapshot.lineagePlaces(rule.lineageId).map(([e]) => e));
  let seen = false;
  let gone: string | null = null;
  for (const e of chain) {
    if (e.effectiveDate > to.effectiveDate) break;
    if (present.has(e.id)) {
      seen = true;
      gone = null;
    } else if (seen && gone === null) gone = e.effectiveDate;
  }
  return gone;
}

/** A report as JSON-ready data: the two editions by date, and the citations. */
export function citationsJson(r: CitationReport): { asOf: string; to: string; citations: CitationCheck[] } {
  return { asOf: r.asOf.effectiveDate, to: r.to.effectiveDate, citations: r.citations };
}
