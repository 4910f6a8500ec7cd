import { emptyDocument } from './crLines.js';
import type { Citation, IndexEntry, ParsedDocument, ParseWarning, RuleNode, RulingNote } from '../../src/core/types.js';

const CHAPTER_RE = /^([A-Z])\s+-\s+(.+?)\s*$/;
// a trailing colon is part of some published titles ("A.11 - Banding:")
const SECTION_RE = /^([A-Z]\.\d+)\s*-\s+(.+?)\s*$/;
const RULE_RE = /^([A-Z]\.\d+)\.(\d+)\s*-\s*(.*)$/;
const RULING_RE = /^([A-Z]\.\d+)\.(Rulings?)\.(\d+)\s*-\s*(.*)$/;
const NOTE_RE = /^Note\s*-\s*(.*)$/;
const TARGET_RE = /^[A-Z](?:\.\d+)*(?:\.Ruling\.\d+)?$/;
const NOISE_RE = /^(?:Top|Return to Rules Index|Return to Index|Back to Top|Next|Previous)$/i;
const CREDITS_RE = /^Acknowledge?ments and Disclaimers$/i;

/** True when the text is a Magic Rulings Summaries document (text release or scraped page). */
export function isRulingsText(text: string): boolean {
  const head = text.slice(0, 200_000);
  const items = head.match(/^[A-Z]\.\d+\.(?:Ruling\.)?\d+\s*-\s/gm)?.length ?? 0;
  const sections = head.match(/^[A-Z]\.\d+\s*-\s+\S/gm)?.length ?? 0;
  return items >= 2 || (items >= 1 && sections >= 1) || (/Rulings Summar(?:y|ies)/i.test(head.slice(0, 5000)) && items >= 1);
}

/** True for the text release (table of contents, index, release banner) rather than a scraped page. */
export function isRulingsTextRelease(text: string): boolean {
  return /^Table of Contents:?\s*$/m.test(text) || /^This is the FINAL release/m.test(text);
}

/**
 * Parses the Magic Rulings Summaries (family 'rulings'): letter chapters as parts, sections
 * ("E.12 - Templates"), numbered rules ("E.12.1- …"), rulings ("E.12.Ruling.3- …") with their
 * bracketed citations listed in `citations` (the text keeps them, as published), section notes,
 * the topic index and the credits.
 */
export function parseRulings(input: string): ParsedDocument {
  const text = /^\s*</.test(input) ? htmlToText(input) : input;
  const lines = text.split('\n');
  const release = isRulingsTextRelease(text);
  const doc: ParsedDocument = {
    ...emptyDocument(release ? 'rulings-text' : 'rulings-html'),
    family: 'rulings',
    effectiveDate: releaseDate(text),
    complete: release,
  };
  const warnings: ParseWarning[] = [];
  const unaccounted: number[] = [];
  const intro: string[] = [];
  const credits: string[] = [];
  const tocHeadings = new Set<string>();
  const numbers = new Set<string>();
  let mode: 'intro' | 'toc' | 'body' | 'index' | 'credits' = 'intro';
  let section: RuleNode | null = null;
  let last: RuleNode | null = null;
  let lastNote: RulingNote | null = null;
  let body = 0;
  const indexLines: string[] = [];

  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.trim();
    const lineNo = i + 1;
    if (t === '') continue;
    const chapter = CHAPTER_RE.exec(t);
    const sec = SECTION_RE.exec(t);
    const isHeading = chapter !== null || (sec !== null && !RULE_RE.test(t) && !RULING_RE.test(t));

    if (mode === 'intro' || mode === 'toc') {
      if (/^Table of Contents:?$/i.test(t)) {
        mode = 'toc';
        continue;
      }
      if (mode === 'toc') {
        if (isHeading && tocHeadings.has(t)) {
          mode = 'body';
        } else if (isHeading || /^Index$/i.test(t) || CREDITS_RE.test(t)) {
          tocHeadings.add(t);
          continue;
        } else {
          mode = 'body';
        }
      } else if (isHeading || RULE_RE.test(t) || RULING_RE.test(t)) {
        mode = 'body';
      } else {
        if (!NOISE_RE.test(t)) intro.push(t);
        continue;
      }
    }
    if (mode === 'credits') {
      credits.push(t);
      continue;
    }
    if (CREDITS_RE.test(t)) {
      mode = 'credits';
      continue;
    }
    if (mode === 'body' && /^Index$/i.test(t)) {
      mode = 'index';
      continue;
    }
    if (mode === 'index') {
      indexLines.push(t);
      continue;
    }

    // body
    if (NOISE_RE.test(t)) continue;
    body++;
    if (chapter) {
      doc.parts.push({ number: chapter[1]!, title: chapter[2]!, line: lineNo });
      section = null;
      last = null;
      lastNote = null;
      continue;
    }
    if (!NOTE_RE.test(t)) lastNote = null;
    const ruling = RULING_RE.exec(t);
    const rule = ruling ? null : RULE_RE.exec(t);
    if (ruling || rule) {
      const parent = (ruling ?? rule)![1]!;
      const number = ruling ? `${parent}.Ruling.${ruling[3]}` : `${parent}.${rule![2]}`;
      const published = (ruling ? ruling[4] : rule![3])!.trim();
      if (ruling && ruling[2] !== 'Ruling') {
        warnings.push({ line: lineNo, code: 'misspelt-number', message: `"${t.slice(0, t.indexOf(' '))}" read as ${number}` });
      }
      const node: RuleNode = {
        number,
        parent,
        kind: ruling ? 'ruling' : 'rule',
        text: published,
        examples: [],
        citations: splitCitations(published),
        line: lineNo,
      };
      if (section?.number !== parent) {
        warnings.push({ line: lineNo, code: 'orphan-rule', message: `${number} is outside section ${parent}` });
      }
      addNode(node);
      last = node;
      continue;
    }
    if (sec) {
      const node: RuleNode = { number: sec[1]!, parent: null, kind: 'section', text: sec[2]!, examples: [], line: lineNo };
      addNode(node);
      section = node;
      last = node;
      continue;
    }
    const note = NOTE_RE.exec(t);
    if (note && section) {
      const text = note[1]!.trim();
      lastNote = { text, citations: splitCitations(text) };
      (section.notes ??= []).push(lastNote);
      continue;
    }
    if (lastNote && !/^[A-Z]\.\d/.test(t)) {
      // a wrapped line of a note
      lastNote.text = `${lastNote.text} ${t}`;
      lastNote.citations = splitCitations(lastNote.text);
      continue;
    }
    if (last && !/^[A-Z]\.\d/.test(t)) {
      // A wrapped line (or a paragraph of the page) continuing the previous entry.
      last.text = `${last.text} ${t}`;
      if (last.kind !== 'section') last.citations = splitCitations(last.text);
      continue;
    }
    unaccounted.push(lineNo);
    warnings.push({ line: lineNo, code: 'unaccounted-line', message: `not a section, rule, ruling or note: ${clip(t)}` });
  }

  function addNode(node: RuleNode): void {
    if (numbers.has(node.number)) {
      warnings.push({ line: node.line, code: 'duplicate-rule', message: `${node.number} appears twice` });
    }
    numbers.add(node.number);
    doc.rules.push(node);
  }

  doc.index = parseIndex(indexLines);
  resolveSeeAlso(doc.index);
  doc.introduction = intro.length > 0 ? intro.join('\n') : null;
  doc.credits = credits.length > 0 ? credits.join('\n') : null;
  doc.accounting = { bodyLines: body, accounted: body - unaccounted.length, unaccounted };
  if (doc.effectiveDate === null && release) {
    warnings.push({ line: null, code: 'no-effective-date', message: 'the release does not state its date' });
  }
  if (doc.rules.length === 0) warnings.push({ line: null, code: 'no-rules', message: 'no rules found' });
  doc.warnings = warnings;
  return doc;
}

/**
 * Splits out every bracketed citation: "[WotC Rules Team 11/10/95]", "[Fifth Edition, Page 47]",
 * "[bethmo 1994]". A bracket holding no digit is a citation only in the run that ends the text
 * ("[Legends Rulecards]"); elsewhere it is part of the wording ("you [may] do <-something->").
 */
export function splitCitations(text: string): Citation[] {
  const out: Citation[] = [];
  const trailing = /(?:\s*\[[^[\]]+\])+[\s.]*$/.exec(text);
  const tail = trailing ? trailing.index : text.length;
  for (const m of text.matchAll(/\[([^[\]]+)\]/g)) {
    const inner = m[1]!.trim();
    if (!/\d/.test(inner) && m.index < tail) continue;
    const d = /^(.*?)[\s,]+(\d{1,4})\/(\d{1,2})\/(\d{1,4})$/.exec(inner);
    if (d) {
      out.push({ source: d[1]!.trim(), date: citationDate(d[2]!, d[3]!, d[4]!), raw: m[0] });
    } else {
      out.push({ source: inner, date: null, raw: m[0] });
    }
  }
  return out;
}

/** "11/10/95" (month/day/year) and "1995/11/10" (year/month/day) name the same day: "1995-11-10". */
export function citationDate(a: string, b: string, c: string): string | null {
  let y: number, mo: number, d: number;
  if (a.length === 4) [y, mo, d] = [Number(a), Number(b), Number(c)];
  else [mo, d, y] = [Number(a), Number(b), Number(c)];
  if (y < 100) y += y < 50 ? 2000 : 1900;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The release date the document states: "… changes since the last released version on 04/21/99." */
function releaseDate(text: string): string | null {
  const head = text.slice(0, 5000);
  const m =
    /released? version (?:on|of|dated) (\d{1,4})\/(\d{1,2})\/(\d{1,4})/i.exec(head) ??
    /(?:release|version|updated)[^\n]{0,40}?\b(\d{1,4})\/(\d{1,2})\/(\d{1,4})\b/i.exec(head);
  return m ? citationDate(m[1]!, m[2]!, m[3]!) : null;
}

interface IndexLine {
  name: string;
  targets: string[];
  see: string | null;
}

/**
 * One index line: "Activated, A.2", "Responding to, T.6.2, T.8.6", a group heading ("Abilities",
 * "Artifact,") or a cross-reference ("Attack, See Combat").
 */
function indexLine(line: string): IndexLine {
  const parts = line.split(',').map((p) => p.trim());
  const targets: string[] = [];
  while (parts.length > 1 && TARGET_RE.test(parts[parts.length - 1]!)) targets.unshift(parts.pop()!);
  const see = /^see\s+(.+)$/i.exec(parts.slice(1).join(', '));
  return { name: see ? parts[0]! : parts.filter((p) => p !== '').join(', '), targets, see: see ? see[1]!.trim() : null };
}

/**
 * The index, its group headings' sub-entries nested ("Abilities, Activated"). The text release
 * prints every line flush left, so where a group's sub-entries end is inferred: both the
 * sub-entries and the topics after them are alphabetical, and the first topic after them sorts
 * after the heading. The split that breaks that order least (the earliest of equals) is taken:
 * "End of Phase" holds only "Abilities"; "End of Turn" after it is a topic of its own.
 */
function parseIndex(lines: string[]): IndexEntry[] {
  const entries = lines.map(indexLine);
  const out: Array<IndexEntry & { see?: string }> = [];
  const push = (e: IndexLine, group: string | null): void => {
    const entry: IndexEntry & { see?: string } = { topic: group === null ? e.name : `${group}, ${e.name}`, targets: e.targets };
    if (e.see !== null) entry.see = e.see;
    out.push(entry);
  };
  for (let i = 0; i < entries.length;) {
    const head = entries[i]!;
    if (head.targets.length > 0 || head.see !== null) {
      push(head, null);
      i++;
      continue;
    }
    // a group heading: the entries up to the next heading are its sub-entries, then topics
    let end = i + 1;
    while (end < entries.length && (entries[end]!.targets.length > 0 || entries[end]!.see !== null)) end++;
    const run = entries.slice(i + 1, end).map((e) => e.name);
    const subs = groupLength(head.name, run);
    entries.slice(i + 1, i + 1 + subs).forEach((e) => push(e, head.name));
    entries.slice(i + 1 + subs, end).forEach((e) => push(e, null));
    i = end;
  }
  return out;
}

/**
 * How many of `run` (the entries after group heading `group`, up to the next heading) are its
 * sub-entries. Each split is scored by how often it breaks alphabetical order (within the
 * sub-entries, within the topics after them, and a first topic sorting before the heading).
 * Among the best, the earliest split whose first topic shares the heading's first letters wins
 * ("End of Phase" is followed by "End of Turn", "Phasing" by "Pitch Spells"), else the longest group.
 */
function groupLength(group: string, run: string[]): number {
  // the index sorts letter by letter: "Infinity" before "In Play Area"
  const key = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const keys = run.map(key);
  const g = key(group);
  const inversions = (from: number, to: number): number => {
    let n = 0;
    for (let k = from + 1; k < to; k++) if (keys[k]! < keys[k - 1]!) n++;
    return n;
  };
  const shared = (a: string): number => {
    let n = 0;
    while (n < a.length && a[n] === g[n]) n++;
    return n;
  };
  // [order breaks, 0 when the first topic shares the heading's first letters, then position]
  let best = run.length;
  let score = [inversions(0, run.length), 1, -run.length];
  for (let k = 1; k < run.length; k++) {
    const near = shared(keys[k]!) > 0;
    const s = [inversions(0, k) + inversions(k, run.length) + (keys[k]! < g ? 2 : 0), near ? 0 : 1, near ? k : -k];
    if (s[0]! < score[0]! || (s[0] === score[0] && (s[1]! < score[1]! || (s[1] === score[1] && s[2]! < score[2]!)))) {
      best = k;
      score = s;
    }
  }
  return best;
}

/** "Attack, See Combat": copies the targets of the topic referred to, when the index has it. */
function resolveSeeAlso(index: Array<IndexEntry & { see?: string }>): void {
  for (const e of index) {
    if (e.see === undefined) continue;
    const want = e.see.toLowerCase();
    // The topic referred to may be a group heading: gather its sub-entries' targets.
    const hits = index.filter((o) => o.topic.toLowerCase() === want || o.topic.toLowerCase().startsWith(`${want}, `));
    e.targets = [...new Set(hits.flatMap((o) => o.targets))];
    delete e.see;
  }
}

/** Minimal tag stripping for a raw Rulings Summaries HTML page: blocks become lines. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(?:p|div|li|h[1-6]|tr|dt|dd)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
