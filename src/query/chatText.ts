import { escapeSnippet } from '../core/escapeHtml.js';
import { stripItalics } from '../core/italics.js';
import type { Family, RuleRecord, SearchHitRecord } from '../core/records.js';
import { familyLabel, isPolicyFamily, numberingNote, splitUnitText } from '../core/policyUnit.js';
import { ruleLabel } from '../core/ruleNumber.js';
import { textClass, type TextClass } from '../engine/compareRule.js';
import type { RuleChange } from '../engine/diffEditions.js';
import type { HistoryStep, RuleHistory, SubruleChanges } from '../engine/history.js';
import type { LookupAnswer } from './answerLookup.js';
import type { CitationReport } from './checkCitations.js';
import type { Format } from './edgeArgs.js';
import type { NewerKnown } from './knownEditions.js';
import type { SearchQuery } from './KnowledgeBase.js';
import { QueryError } from './QueryError.js';

// The one set of chat-sized formatters every edge uses: a lookup, a search hit, a diff line, a history step, where cited numbers are now, an error.

/** Chat answers: plain text (the CLI, MCP's diffs and histories) or Markdown (Discord, MCP, /v1). */
type ChatFormat = 'text' | 'markdown';

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
  /** A newer edition the sources manifest knows and the database lacks (KnowledgeBase.newerKnown): said in a line of its own. */
  newerKnown?: NewerKnown | null;
}

/** Escapes Markdown's inline syntax characters in plain text (and breaks bare URLs, which chat apps link). */
function escapeMd(s: string): string {
  return s.replace(/([\\*_~`|>#[\]<])/g, '\\$1').replace(/:\/\//g, ':\\/\\/');
}

/** The answer as JSON-ready data (examples included on request). */
export function lookupJson(a: LookupAnswer, examplesOf: (r: RuleRecord) => string[], opts: FormatOptions) {
  const note = numberingNote(a.edition.family);
  return {
    query: a.query,
    kind: a.kind,
    matched: a.matched,
    edition: a.edition.effectiveDate,
    ...(note === null ? {} : { numbering: note }),
    rules: a.rules.map((r) => ({
      number: r.number,
      parent: r.parent,
      text: r.text,
      ...(opts.examples ? { examples: examplesOf(r) } : {}),
    })),
    glossary: a.glossary.map((g) => ({ term: g.term, definition: g.definition })),
    ...(a.example ? { example: a.example } : {}),
    ...(a.duplicated ? { duplicated: { number: a.duplicated, note: duplicateNote(a) } } : {}),
    suggestions: a.suggestions,
    url: opts.fullUrl,
    newerKnown: opts.newerKnown ?? null,
  };
}

/** The line an answer ends with when newer rules are known but not stored: "Newer rules exist: 2026-09-25 (FRA) is not stored here; run crkb update." */
export function newerKnownLine(n: NewerKnown, f: ChatFormat): string {
  const which = `${n.effectiveDate}${n.setCode ? ` (${n.setCode})` : ''}`;
  const more = n.missing > 1 ? ` (and ${n.missing - 1} edition${n.missing > 2 ? 's' : ''} before it)` : '';
  return f === 'markdown'
    ? `*Newer rules exist: ${which}${more} is not stored here; run \`${n.how}\`.*`
    : `Newer rules exist: ${which}${more} is not stored here; run ${n.how}.`;
}

/** "702.175 is printed 2 times in the 2024-09-20 edition; each is shown." */
function duplicateNote(a: LookupAnswer): string {
  const n = a.rules.filter((r) => r.number === a.duplicated).length;
  return `${a.duplicated} is printed ${n === 2 ? 'twice' : `${n} times`} in the ${a.edition.effectiveDate} edition; each is shown.`;
}

/**
 * The line naming the edition an answer comes from: "(CR 2021-07-23)", "*CR 2021-07-23*", "(IPG 2021-02-05)"; the
 * JAR's says its numbers are crkb's ("(JAR 2019-01-21; numbers by crkb, not published)").
 */
export function editionLine(date: string, f: ChatFormat, family: Family = 'cr'): string {
  const name = family === 'cr' ? 'CR' : familyLabel(family);
  const note = numberingNote(family) === null ? '' : '; numbers by crkb, not published';
  return f === 'markdown' ? `*${name} ${date}${note}*` : `(${name} ${date}${note})`;
}

/** A rule's label and text on one line; a tournament document's unit as "2.1 Title [Penalty]" and its body. */
function ruleText(r: RuleRecord, family: Family): { label: string; text: string } {
  if (!isPolicyFamily(family)) return { label: ruleLabel(r), text: r.text };
  const u = splitUnitText(r.text);
  const heading = `${u.title}${u.penalty ? ` [${u.penalty}]` : ''}`;
  return { label: r.number, text: u.body === '' ? heading : `${heading}: ${u.body.replace(/\n/g, ' ')}` };
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
  if (a.duplicated) add(md ? `*${esc(duplicateNote(a))}*` : duplicateNote(a));
  for (const g of a.glossary) {
    const def = stripItalics(g.definition).replace(/\n/g, ' ');
    add(md ? `**${esc(g.term)}**: ${esc(def)}` : `${g.term}: ${def}`);
  }
  for (const r of a.rules) {
    const { label, text } = ruleText(r, a.edition.family);
    add(md ? `**${label}** ${esc(stripItalics(text))}` : `${label} ${stripItalics(text)}`, r.number);
    if (a.example)
      add(
        md ? `> *Example ${a.example.index}:* ${esc(stripItalics(a.example.text))}` : `  Example ${a.example.index}: ${stripItalics(a.example.text)}`,
        r.number,
      );
    else if (opts.examples) for (const e of examplesOf(r).map(stripItalics)) add(md ? `> *Example:* ${esc(e)}` : `  Example: ${e}`, r.number);
  }
  if (a.suggestions.length > 0) add(`${a.kind === 'none' ? 'Did you mean' : 'Also'}: ${a.suggestions.map(esc).join(', ')}`);
  add(editionLine(a.edition.effectiveDate, md ? 'markdown' : 'text', a.edition.family));
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
  if (opts.newerKnown) {
    // the line is always said: the answer is cut to leave room for it
    const note = newerKnownLine(opts.newerKnown, format);
    const limit = Math.min(opts.limit ?? CHAT_LIMIT, CHAT_LIMIT) - note.length - 1;
    return `${formatLookup(a, format, examplesOf, { ...opts, newerKnown: null, limit })}\n${note}`;
  }
  const md = format === 'markdown';
  const all = lines(a, md, examplesOf, opts);
  const texts = all.map((l) => l.text);
  const limit = Math.min(opts.limit ?? CHAT_LIMIT, CHAT_LIMIT);
  if (opts.full || texts.join('\n').length <= limit) return texts.join('\n');
  const moreLine = (hidden: string): string =>
    md
      ? `[… ${hidden ? `${escapeMd(hidden)} not shown; ` : ''}the rest](<${opts.fullUrl}>)`
      : `… ${hidden ? `${hidden} not shown; ` : ''}the rest: ${opts.fullUrl}`;
  // a range too long to show whole ("601.2a-h"): every rule of it on one line, each cut to its share
  if (a.kind === 'range' && !opts.examples) {
    const compact = compactRange(all, md, limit, moreLine(''));
    if (compact !== null) return compact;
  }
  // room for the longest note the cut can need: every rule from the first to the last hidden
  const ruleNumbers = all.flatMap((l) => (l.rule === null ? [] : [l.rule]));
  const worst = moreLine(notShown([ruleNumbers[0] ?? '', ruleNumbers.at(-1) ?? '']));
  const kept = fitLines(texts, limit, worst.length);
  // a rule whose own line is shown but whose examples are cut counts as shown
  const shown = new Set(all.slice(0, kept.length).flatMap((l) => (l.rule === null ? [] : [l.rule])));
  const hidden = ruleNumbers.filter((n) => !shown.has(n));
  return [...kept, moreLine(notShown(hidden))].join('\n');
}

/** Shortest share of a rule's text in a compact range: less says too little to be worth it. */
const MIN_SHARE = 60;

/** A range's lines with each rule's text cut to an equal share of `limit`, or null when the shares would be too short. */
function compactRange(all: readonly Line[], md: boolean, limit: number, moreLine: string): string | null {
  const rules = all.filter((l) => l.rule !== null);
  const others = all.filter((l) => l.rule === null);
  const fixed = others.reduce((n, l) => n + l.text.length + 1, 0) + moreLine.length + 1;
  const share = Math.floor((limit - fixed) / Math.max(1, rules.length)) - 1;
  if (share < MIN_SHARE) return null;
  // a cut inside Markdown markup could leave it open: cut the text after the bold label, and close the line
  const cut = (t: string, room: number): string => (t.length <= room ? t : `${t.slice(0, room - 1).replace(/\s+\S*$/, '')}…`);
  const lines = all.map((l) => (l.rule === null ? l.text : md ? cutMd(l.text, share, cut) : cut(l.text, share)));
  return [...lines, moreLine].join('\n');
}

/** A Markdown rule line ("**601.2a** text") cut after its label, never inside it. */
function cutMd(line: string, share: number, cut: (t: string, room: number) => string): string {
  const m = /^(\*\*[^*]+\*\* )(.*)$/s.exec(line);
  if (!m) return cut(line, share);
  const text = cut(m[2]!, share - m[1]!.length);
  // an escape cut in half ("\\" left alone) would escape the ellipsis: drop a trailing backslash
  return m[1]! + text.replace(/\\…$/, '…');
}

/** A text with its first letter a capital (a message as a sentence). */
export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A text cut at `max` characters with an ellipsis. */
export function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** A text on one line, cut at `max` characters with an ellipsis. */
export function oneLine(s: string, max: number): string {
  return clip(s.replace(/\s+/g, ' '), max);
}

/** An error as one line of an answer: its message and the nearest candidates ("Did you mean: 702.19, 702.9?"). */
export function errorText(e: QueryError | { message: string; suggestions?: readonly string[] | undefined }, f: ChatFormat): string {
  const s = (e instanceof QueryError ? e.details.suggestions : e.suggestions) ?? [];
  return `${e.message}.${s.length ? ` Did you mean: ${s.map(f === 'markdown' ? escapeMd : String).join(', ')}?` : ''}`;
}

/** A search hit as JSON-ready data (/v1/search, MCP). */
export function searchHitJson(h: SearchHitRecord) {
  const hit = { kind: h.kind, number: h.rule?.number ?? null, term: h.glossary?.term ?? null, exampleIndex: h.exampleIndex, snippet: h.snippet };
  return h.correctedQuery ? { ...hit, correctedQuery: h.correctedQuery } : hit;
}

/** Where a search hit is: "702.19b", "702.19b (example 2)", "Glossary: Trample". */
function hitPlace(h: SearchHitRecord): string {
  if (h.glossary) return `Glossary: ${h.glossary.term}`;
  return `${h.rule?.number ?? ''}${h.kind === 'example' ? ` (example ${(h.exampleIndex ?? 0) + 1})` : ''}`;
}

/** A search hit as a line: "702.19b …snippet…", "- **702.19b** …snippet…" (the snippet marked and escaped by the search). */
export function searchHitLine(h: SearchHitRecord, f: ChatFormat): string {
  return f === 'markdown' ? `- **${escapeMd(hitPlace(h))}** ${h.snippet}` : `${hitPlace(h)} ${h.snippet}`;
}

/** How a search marks and escapes snippets for a format: HTML for JSON (matches in <b>), Markdown (in **), plain text. */
export function snippetStyle(f: Format): Pick<SearchQuery, 'marks' | 'escape'> {
  if (f === 'json') return { marks: { open: '<b>', close: '</b>' }, escape: escapeSnippet };
  return f === 'markdown' ? { marks: { open: '**', close: '**' }, escape: escapeMd } : { marks: { open: '', close: '' } };
}

/** Search hits as lines, or one line saying nothing in the edition matches. */
export function searchLines(hits: readonly SearchHitRecord[], q: string, date: string, f: ChatFormat): string[] {
  const fixed = hits[0]?.correctedQuery;
  // a misspelt word was read as the edition's closest one: say so ("comabt damage")
  if (fixed) return [f === 'markdown' ? `*Showing results for ${echoMd(fixed)}*` : `Showing results for "${fixed}"`, ...hits.map((h) => searchHitLine(h, f))];
  if (hits.length > 0) return hits.map((h) => searchHitLine(h, f));
  const asked = q.slice(0, 80);
  return [`Nothing in the ${date} edition matches ${f === 'markdown' ? echoMd(asked) : `"${asked}"`}.`];
}

const changeWord = (c: TextClass): string => (c === 'none' ? 'renumbered' : c === 'substantive' ? 'reworded' : c);

/** A rule change as a line: "+ 702.19c text", "- 702.19c text", "~ 702.18b → 702.19b (reworded) text", the text cut at `maxText`. */
export function diffLine(c: RuleChange, f: ChatFormat, maxText = Infinity): string {
  const md = f === 'markdown';
  const num = (n: string): string => (md ? `**${n}**` : n);
  let head: string;
  if (!c.before) head = `+ ${num(c.after!.number)}${c.splitFrom !== undefined ? ` (split from ${c.splitFrom})` : ''}`;
  // a Markdown line may not start with "- ": it would be a list item
  else if (!c.after) head = `${md ? '−' : '-'} ${num(c.before.number)}${c.mergedInto !== undefined ? ` (merged into ${c.mergedInto})` : ''}`;
  else head = `~ ${c.renumbered ? `${num(c.before.number)} → ` : ''}${num(c.after.number)} (${changeWord(textClass(c))})`;
  const text = oneLine(stripItalics(c.after?.text ?? c.before?.text ?? ''), maxText);
  return `${head} ${md ? escapeMd(text) : text}`;
}

const TEXT_CHANGE = new Map([
  ['typography', 'typography'],
  ['references', 'reference numbers updated'],
  ['correction', 'reference corrected'],
  ['substantive', 'reworded'],
]);

/** What changed at a history step: "first appears", "renumbered from 702.18b, reworded"; `renumbered` is "renamed" for terms; subrule changes listed or only named. */
export function historyStepWords(s: HistoryStep, renumbered = 'renumbered', subrules: 'listed' | 'named' = 'listed'): string {
  const words = [
    s.change === 'added' ? 'first appears' : s.change === 'returned' ? 'returns after a gap' : null,
    s.renumbered ? `${renumbered} from ${s.previousNumber ?? '?'}` : null,
    s.textChange === undefined || s.textChange === 'none' ? null : TEXT_CHANGE.get(s.textChange)!,
    s.examplesChanged ? 'examples changed' : null,
    s.subrules ? (subrules === 'listed' ? `subrules: ${subruleWords(s.subrules)}` : 'subrules changed') : null,
  ];
  return words.filter((w) => w !== null).join(', ') || 'unchanged';
}

const SHOWN_SUBRULES = 6;

/** How one subrule changed: "reworded", "typography and examples changed". */
export function subruleChangeWords(c: SubruleChanges['changed'][number]): string {
  return [c.textChange === 'none' ? null : TEXT_CHANGE.get(c.textChange)!, c.examplesChanged ? 'examples changed' : null]
    .filter((w) => w !== null)
    .join(' and ');
}

/** Subrule changes in a phrase: "702.19e added; 702.19c reworded; 702.19d renumbered from 702.19c" (at most 6 numbers a kind, then "and N more"). */
export function subruleWords(c: SubruleChanges): string {
  const list = (items: string[], what: string): string | null =>
    items.length === 0
      ? null
      : `${items.slice(0, SHOWN_SUBRULES).join(', ')}${items.length > SHOWN_SUBRULES ? ` and ${items.length - SHOWN_SUBRULES} more` : ''} ${what}`;
  const changed = (c: SubruleChanges['changed'][number]): string => `${c.number} ${subruleChangeWords(c)}`;
  // a number removed and added again in one step: another rule under the old number (the lineage says so)
  const gone = new Set(c.removed.map((r) => r.number));
  const replaced = c.added.filter((a) => gone.has(a.number) && !a.from).map((a) => a.number);
  return [
    list(
      c.added.filter((a) => !replaced.includes(a.number)).map((a) => (a.from ? `${a.number} (from ${a.from})` : a.number)),
      'added',
    ),
    list(
      c.removed.filter((r) => !replaced.includes(r.number)).map((r) => (r.to ? `${r.number} (now ${r.to})` : r.number)),
      'removed',
    ),
    list(replaced, 'replaced by a new rule'),
    c.renumbered.length
      ? list(
          c.renumbered.map((r) => `${r.from} → ${r.to}`),
          'renumbered',
        )
      : null,
    c.changed.length
      ? `${c.changed.slice(0, SHOWN_SUBRULES).map(changed).join(', ')}${c.changed.length > SHOWN_SUBRULES ? ` and ${c.changed.length - SHOWN_SUBRULES} more changed` : ''}`
      : null,
  ]
    .filter((w) => w !== null)
    .join('; ');
}

/** A history in a line: "numbered 502.9b → 702.19b; in 111 editions, 1999-04-23 to 2023-02-03". */
export function historySummary(h: RuleHistory): string {
  return `numbered ${h.numbers.join(' → ')}; in ${h.steps.length} editions, ${h.first} to ${h.last}`;
}

/** A step of a rule's history as a list item: "- 2009-07-11 **702.17b.** renumbered from 502.9b, reworded", its text after a colon on request. */
export function historyStepLine(s: HistoryStep, f: ChatFormat, withText = false): string {
  const md = f === 'markdown';
  const text = withText ? `: ${md ? escapeMd(stripItalics(s.text)) : stripItalics(s.text)}` : '';
  return `- ${s.date} ${md ? `**${ruleLabel(s)}**` : ruleLabel(s)} ${historyStepWords(s)}${text}`;
}

/** Where cited numbers are now: a Markdown table, one row per citation. */
export function citationsMarkdown(r: CitationReport): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
  const short = (s: string): string => cell(clip(s, 80));
  const lines = [
    `Citations written against the ${r.asOf.effectiveDate} edition, checked in the ${r.to.effectiveDate} edition.`,
    '',
    '| cited | status | now | then | note |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const c of r.citations) {
    const now = c.now ? (c.family === 'cr' ? ruleLabel(c.now) : `${familyLabel(c.family)} ${c.now.number}`) : '—';
    const notes: string[] = [];
    if (c.goneSince) notes.push(`gone since ${c.goneSince}`);
    if (c.textChange === 'references') notes.push('only reference numbers changed');
    if (c.textChange === 'substantive') notes.push('text changed');
    if (c.title !== null)
      notes.push(
        c.titleMatches === null
          ? `title “${cell(c.title)}”`
          : c.titleMatches
            ? `title “${cell(c.title)}” matches`
            : `title “${cell(c.title)}” no longer matches`,
      );
    lines.push(
      `| ${c.cited} | ${c.status === 'unknown' ? 'not a rule then' : c.status} | ${now} | ${c.then ? short(c.then.text) : '—'} | ${notes.join('; ')} |`,
    );
  }
  if (r.citations.length === 0) lines.push('| — | no citations found | | | |');
  return lines.join('\n');
}
