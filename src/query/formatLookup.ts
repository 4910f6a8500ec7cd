import type { RuleRecord } from '../core/records.js';
import { ruleLabel } from '../core/ruleNumber.js';
import type { LookupAnswer } from './answerLookup.js';

/** Output formats of /v1/lookup and /v1/rules. */
export type LookupFormat = 'json' | 'text' | 'markdown';

/** The most a text or markdown answer may hold: one chat message. */
export const CHAT_LIMIT = 2000;

/** Options for formatting an answer. */
export interface FormatOptions {
  examples: boolean;
  /** Where the whole answer can be read; the last line of a cut answer points there. */
  fullUrl: string;
  /** Skip the 2,000-character cap (the full answer itself). */
  full?: boolean;
  /** A lower cap than CHAT_LIMIT, leaving room for a line of the caller's. */
  limit?: number;
}

/** Escapes Markdown's inline syntax characters in plain text (and breaks bare URLs, which chat apps link). */
export function escapeMd(s: string): string {
  return s.replace(/([\\*_~`|>#[\]<])/g, '\\$1').replace(/:\/\//g, ':\\/\\/');
}

/** The answer as JSON-ready data (examples included on request). */
export function lookupJson(a: LookupAnswer, examplesOf: (r: RuleRecord) => string[], opts: FormatOptions) {
  return {
    query: a.query,
    kind: a.kind,
    matched: a.matched,
    edition: a.edition.effectiveDate,
    rules: a.rules.map((r) => ({
      number: r.number,
      parent: r.parent,
      text: r.text,
      ...(opts.examples ? { examples: examplesOf(r) } : {}),
    })),
    glossary: a.glossary.map((g) => ({ term: g.term, definition: g.definition })),
    ...(a.example ? { example: a.example } : {}),
    suggestions: a.suggestions,
    url: opts.fullUrl,
  };
}

/** The user's own words in a Markdown answer: a code span, so nothing in them renders as a link or markup. */
function echoMd(s: string): string {
  return `\`${s.replace(/`/g, "'").replace(/\s+/g, ' ')}\``;
}

/** One line of an answer, and the rule it shows (null for other lines). */
interface Line {
  text: string;
  rule: string | null;
}

/** Lines of a text or markdown answer, before the cap. */
function lines(a: LookupAnswer, md: boolean, examplesOf: (r: RuleRecord) => string[], opts: FormatOptions): Line[] {
  const out: Line[] = [];
  const add = (text: string, rule: string | null = null) => out.push({ text, rule });
  const esc = md ? escapeMd : (s: string) => s;
  if (a.kind === 'fuzzy' && a.matched) add(md ? `*Showing “${esc(a.matched)}”*` : `Showing "${a.matched}"`);
  if (a.kind === 'search') add(md ? `*No rule or term ${echoMd(a.query)}; rules mentioning it:*` : `No rule or term "${a.query}"; rules mentioning it:`);
  if (a.kind === 'none')
    add(
      md
        ? `Nothing found for ${echoMd(a.query)} in the ${a.edition.effectiveDate} edition.`
        : `Nothing found for "${a.query}" in the ${a.edition.effectiveDate} edition.`,
    );
  for (const g of a.glossary) add(md ? `**${esc(g.term)}**: ${esc(g.definition.replace(/\n/g, ' '))}` : `${g.term}: ${g.definition.replace(/\n/g, ' ')}`);
  for (const r of a.rules) {
    add(md ? `**${ruleLabel(r)}** ${esc(r.text)}` : `${ruleLabel(r)} ${r.text}`, r.number);
    if (a.example) add(md ? `> *Example ${a.example.index}:* ${esc(a.example.text)}` : `  Example ${a.example.index}: ${a.example.text}`, r.number);
    else if (opts.examples) for (const e of examplesOf(r)) add(md ? `> *Example:* ${esc(e)}` : `  Example: ${e}`, r.number);
  }
  if (a.suggestions.length > 0) add(`${a.kind === 'none' ? 'Did you mean' : 'Also'}: ${a.suggestions.map(esc).join(', ')}`);
  add(md ? `*CR ${a.edition.effectiveDate}*` : `(CR ${a.edition.effectiveDate})`);
  return out;
}

/** "704.5m–704.5z" for the rules a cut answer leaves out (first and last), "" when it shows every rule. */
function notShown(numbers: readonly string[]): string {
  const hidden = [...new Set(numbers)];
  if (hidden.length === 0) return '';
  return hidden.length === 1 ? hidden[0]! : `${hidden[0]}–${hidden.at(-1)}`;
}

/** The lines that fit in `limit` characters with `reserve` more: whole lines, or the first one cut at a word. */
function fitLines(all: string[], limit: number, reserve: number): string[] {
  const kept: string[] = [];
  let size = reserve;
  for (const l of all) {
    if (size + l.length + 1 > limit) break;
    kept.push(l);
    size += l.length + 1;
  }
  if (kept.length === 0 && all[0] !== undefined) {
    const room = Math.max(0, limit - reserve - 2);
    const cut = all[0].slice(0, room);
    const space = cut.lastIndexOf(' ');
    kept.push(`${space > room / 2 ? cut.slice(0, space) : cut}…`);
  }
  return kept;
}

/**
 * Joins lines into one message of at most `limit` characters, cut at a line
 * boundary, with a final line pointing to the rest. A first line too long on
 * its own is cut at a word.
 */
export function capLines(all: string[], limit: number, moreLine: string): string {
  const whole = all.join('\n');
  if (whole.length <= limit) return whole;
  return [...fitLines(all, limit, moreLine.length), moreLine].join('\n');
}

/** Formats an answer as chat text or markdown, capped at CHAT_LIMIT (or `limit`) characters unless `full`. */
export function formatLookup(a: LookupAnswer, format: 'text' | 'markdown', examplesOf: (r: RuleRecord) => string[], opts: FormatOptions): string {
  const md = format === 'markdown';
  const all = lines(a, md, examplesOf, opts);
  const texts = all.map((l) => l.text);
  const limit = Math.min(opts.limit ?? CHAT_LIMIT, CHAT_LIMIT);
  if (opts.full || texts.join('\n').length <= limit) return texts.join('\n');
  const moreLine = (hidden: string): string =>
    md
      ? `[… ${hidden ? `${escapeMd(hidden)} not shown; ` : ''}the rest](<${opts.fullUrl}>)`
      : `… ${hidden ? `${hidden} not shown; ` : ''}the rest: ${opts.fullUrl}`;
  // room for the longest note the cut can need: every rule from the first to the last hidden
  const ruleNumbers = all.flatMap((l) => (l.rule === null ? [] : [l.rule]));
  const worst = moreLine(notShown([ruleNumbers[0] ?? '', ruleNumbers.at(-1) ?? '']));
  const kept = fitLines(texts, limit, worst.length);
  // a rule whose own line is shown but whose examples are cut counts as shown
  const shown = new Set(all.slice(0, kept.length).flatMap((l) => (l.rule === null ? [] : [l.rule])));
  const hidden = ruleNumbers.filter((n) => !shown.has(n));
  return [...kept, moreLine(notShown(hidden))].join('\n');
}
