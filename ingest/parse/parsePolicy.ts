import type { PolicyFamilyName as PolicyFamily } from '../../src/core/families.js';
import type { ParsedDocument, ParseWarning, PolicyPart, RuleNode, SourceFormat } from '../../src/core/types.js';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DATE = String.raw`([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})`;
const DATE_RE = new RegExp(String.raw`\b` + DATE, 'gi');
const EFFECTIVE_RE = new RegExp(String.raw`\b(?:effective|updated)\s*(?:—|–|-|:)?\s*` + DATE, 'gi');
// a contents line: dotted leaders or a tab, then a page number
const TOC_LINE = /(?:(?:\.\s?){4,}|\t)\s*\d{1,3}\s*$/;
const CONTENTS = /^(?:table\s+of\s+)?contents(?:\s+page)?$/i;
const NUMBERED = /^(\d{1,3})\.(?:(\d{1,2})\.?)?\s+(\S.*)$/;
// a top-level heading with no full stop after its number, in capitals ("2 GAME PLAY ERRORS": the IPG's HTML renditions of 2016)
const NUMBERED_BARE = /^(\d{1,2})()\s+([A-Z][A-Z0-9 ,'’&/()-]{2,80})$/;
const APPENDIX = /^appendix\s+([A-Z])\s*(?:—|–|-|:)+\s*(\S.*)$/i;
const PART = /^(definitions?|philosophy|additional\s+remed(?:y|ies)|upgrades?|examples?|penalty|procedures?)\b\s*:?\s*(.*)$/i;
const PENALTY = /^(?:no penalty|caution|warning|game loss|match loss|disqualification|see below|infraction[- ]dependent|all levels\b.*)\**$/i;
// the penalty box of the 2007-2010 IPGs: a row of levels ("All Levels", "Regular Competitive Professional") over a
// row of penalties, which the text layer gives as one line or two ("All Levels Game", "All Levels" / "Warning")
const REL_HEADER = /^(All Levels|Regular Competitive Professional)\b\s*(.*)$/;
// the box's shorthand, as its Penalty Quick Reference writes it too
const SHORT_PENALTY = new Map([
  ['Game', 'Game Loss'],
  ['Match', 'Match Loss'],
]);

/**
 * The penalty a 2007-2010 IPG's box names (the line `l` at `i`, and the next when the row of penalties is on its
 * own): "All Levels Game" → "Game Loss"; "Regular Competitive Professional Caution Warning Warning" → "Regular:
 * Caution; Competitive: Warning; Professional: Warning". A line of another shape is the penalty as written. Pure.
 */
function penaltyOfBox(l: string, lines: readonly string[], i: number): string {
  const m = REL_HEADER.exec(l);
  if (!m) return l;
  const values = (m[2] === '' ? (lines[i + 1] ?? '') : m[2]!).trim();
  const word = (w: string): string => SHORT_PENALTY.get(w.replace(/\*$/, '')) ?? w;
  if (m[1] === 'All Levels') {
    const p = values.replace(/^(Game|Match)(\*?)$/, (_, w: string, star: string) => `${SHORT_PENALTY.get(w)!}${star}`);
    return PENALTY.test(p) || /^Disqualification without prize$/i.test(p) ? p : l;
  }
  // three columns; a penalty of two words ("Match Loss", "Game Loss", "No Penalty") is kept whole
  const cells = values.match(/Disqualification(?: without prize)?|(?:Game|Match) Loss\*?|No Penalty|N\/A|\S+/g) ?? [];
  if (cells.length !== 3) return l;
  return ['Regular', 'Competitive', 'Professional'].map((rel, k) => `${rel}: ${word(cells[k]!)}`).join('; ');
}

// an IPG heading's title with its penalty joined after it ("Game Play Error — Missed Trigger No Penalty")
const PENALTY_AFTER_TITLE = /^(.*\S)\s+(No Penalty|Caution|Warning|Game Loss|Match Loss|Disqualification)$/;
// small words a title keeps in lower case; any other lower-case word starts the sentence after a run-in heading
const TITLE_WORDS = new Set(['of', 'and', 'the', 'to', 'for', 'in', 'a', 'an', 'or', 'with', 'from', 'on', 'at', 'by', 'vs', 'vs.', 'as', 'into', 'per']);

/** Which tournament-policy family a text's head names, or null (a Comprehensive Rules text, anything else). */
export function policyFamilyOf(text: string): PolicyFamily | null {
  // the title names the document; the body names the others ("see the DCI Penalty Guidelines"): the
  // first name in the head wins
  const head = text.slice(0, 1500);
  const names: Array<[RegExp, PolicyFamily | null]> = [
    [/comprehensive\s+rules/i, null],
    [/infraction\s+procedure\s+guide|penalty\s+guide/i, 'ipg'],
    [/judging\s+at\s+regular/i, 'jar'],
    [/tournament\s+rules|floor\s+rules/i, 'mtr'],
  ];
  let best: { at: number; family: PolicyFamily | null } | null = null;
  for (const [re, family] of names) {
    const m = re.exec(head);
    if (m && (best === null || m.index < best.at)) best = { at: m.index, family };
  }
  if (best !== null) return best.family;
  // a rendition with no title (the MTG Familiar app's IPG of February 2013): its contents list the IPG's infractions
  const infractions = head.match(/\b\d\.\d{1,2}\.?\s+(?:Game Play Error|Tournament Error|Unsporting Conduct)\s*[-—–]/g)?.length ?? 0;
  return infractions >= 3 ? 'ipg' : null;
}

/** The ISO date a DATE match names ("June 1, 2000": month name, day, year), or null when there is no such day. */
function dateOf(m: RegExpMatchArray): string | null {
  const monthName = m[1]!;
  const day = Number(m[2]);
  const year = Number(m[3]);
  const month = MONTHS.findIndex((name) => name.startsWith(monthName.toLowerCase().slice(0, 3))) + 1;
  if (month < 1 || day < 1 || day > 31) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The effective date a tournament document states in its head ("Effective June 1, 2000", "Updated
 * September 26, 2014"); of "effective …, updated …" the update; never a date further down (set lists
 * are full of them).
 */
export function policyEffectiveDate(head: string): string | null {
  let found: string | null = null;
  for (const m of head.matchAll(EFFECTIVE_RE)) {
    const d = dateOf(m);
    if (d === null) continue;
    // "Effective May 4, 2018 / Last updated May 22, 2018" (the blog renditions): a correction, filed under the effective date
    if (/last\s+$/i.test(head.slice(Math.max(0, m.index - 5), m.index))) continue;
    // "Effective September 1, 2003, updated December 1, 2003": the update names the edition
    if (found === null || /^updated/i.test(m[0])) found = d;
  }
  return found;
}

/**
 * The date a document that misstates its own year really has: the same day a year after `stated`, when
 * the text gives `stated` nowhere but in its head and that later day at least twice, once as an effective
 * date ("Effective February 5, 2020" over "Kaldheim (effective February 5, 2021)" and a list of changes
 * dated February 5, 2021); null otherwise. A document's own date is in its set lists and its changes. Pure.
 */
export function yearSlipOf(stated: string, text: string): string | null {
  const next = `${Number(stated.slice(0, 4)) + 1}${stated.slice(4)}`;
  let statedCount = 0;
  let nextCount = 0;
  for (const m of text.matchAll(DATE_RE)) {
    const d = dateOf(m);
    if (d === stated) statedCount++;
    else if (d === next) nextCount++;
  }
  const effectiveNext = [...text.matchAll(EFFECTIVE_RE)].some((m) => dateOf(m) === next);
  return statedCount <= 1 && nextCount >= 2 && effectiveNext ? next : null;
}

interface Heading {
  number: string;
  kind: RuleNode['kind'];
  title: string;
  /** Text after a run-in title ("112. Match Time Limits The required …"). */
  rest: string;
  penalty: string | null;
}

/** Splits a run-in heading: the title is the run of title-case words before the first sentence. */
function splitRunIn(text: string): { title: string; rest: string } {
  const words = text.split(' ');
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (/^[a-z]/.test(w) && !TITLE_WORDS.has(w)) {
      // the sentence began at the last capitalised word before this one
      let j = i - 1;
      while (j > 0 && !/^[A-Z(“"]/.test(words[j]!)) j--;
      if (j === 0) return { title: text, rest: '' };
      return { title: words.slice(0, j).join(' '), rest: words.slice(j).join(' ') };
    }
  }
  return { title: text, rest: '' };
}

/** Numbering schemes: the DCI era's hundreds ("101. Format …") and the decimal one ("2.3 Pregame Procedures"). */
type Scheme = 'hundreds' | 'decimal';

function schemeOf(lines: string[]): Scheme {
  let hundreds = 0;
  let decimal = 0;
  for (const l of lines) {
    if (/^\d{3}\.\s+[A-Z]/.test(l)) hundreds++;
    else if (/^\d{1,2}\.\d{1,2}\.?\s+[A-Z]/.test(l)) decimal++;
  }
  return hundreds > decimal ? 'hundreds' : 'decimal';
}

function levelOf(number: string, scheme: Scheme): number {
  if (scheme === 'decimal') return number.includes('.') ? 1 : 0;
  const n = Number(number);
  if (n < 10) return 0;
  if (n < 100) return n % 10 === 0 ? 1 : 2;
  return n % 100 === 0 ? 0 : n % 10 === 0 ? 1 : 2;
}

function numberKey(number: string): number[] {
  return number.split('.').map(Number);
}

function after(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? -1;
    const y = b[i] ?? -1;
    if (x !== y) return x > y;
  }
  return false;
}

/**
 * Parses a tournament-policy document (MTR, IPG, JAR) from its text, one paragraph a line (as the
 * PDF cleanup, Word's text export and the HTML readers give it), into the document model: every
 * numbered section, subsection and appendix a unit with its title and body; in the IPG each
 * infraction's parts (definition, philosophy, additional remedy, upgrade, penalty) and examples.
 * Front matter (title, date, introduction) and contents lines are accounted for; every other line
 * lands in a unit, and a line no unit claims is reported. `markup` gives the lines an HTML rendition's markup
 * shows (see policyHtmlText): entries of its contents (links within the page), contents before the first unit
 * as a PDF's lines with page numbers are, after it those that come again as a heading; and heading elements,
 * whose numbered titles need not be in title case ("4. Unsporting conduct").
 */
export function parsePolicy(
  text: string,
  family: PolicyFamily,
  format: SourceFormat,
  markup: { contentsLinks: ReadonlySet<number>; headingLines: ReadonlySet<number> } = { contentsLinks: new Set(), headingLines: new Set() },
): ParsedDocument {
  const { contentsLinks, headingLines } = markup;
  const raw = text.split('\n');
  const lines = raw.map((l) => l.replace(/[ \u00a0]+/g, ' ').trim());
  const warnings: ParseWarning[] = [];
  const scheme = schemeOf(lines);
  const rules: RuleNode[] = [];
  const claimed = new Set<number>();
  let firstUnit = -1;
  let inContents = false;
  // the numbers the contents list (without page numbers), checked against the units found
  const contents: string[] = [];
  let lastAppendix = '';
  let last: number[] | null = null;
  let current: RuleNode | null = null;
  let part: PolicyPart | null = null;
  let appendices = false;
  let introduction: string[] = [];
  const byLevel: Array<RuleNode | null> = [null, null, null];
  // the titles an HTML rendition's contents give, by number: a heading that runs on past its title into its text
  // ("Appendix D-Recommended Booster Mix for Limited Tournaments Note: The following …") ends where the entry does
  const listedTitles = new Map<string, string>();

  const heading = (l: string, marked = false): Heading | null => {
    if (TOC_LINE.test(l)) return null;
    const a = APPENDIX.exec(l);
    if (a) {
      // a table's header row joined to the appendix's heading ("PENALTY QUICK REFERENCE Infraction REL 1 REL 2 …") is its body's first line
      const t = /^(.*?\S)\s+(Infraction(?:\s+(?:REL\s+\d|Regular|Competitive|Professional))+)$/.exec(a[2]!.trim());
      return { number: `Appendix ${a[1]!.toUpperCase()}`, kind: 'appendix', title: t ? t[1]! : a[2]!.trim(), rest: t ? t[2]! : '', penalty: null };
    }
    if (appendices) return null;
    const m = NUMBERED.exec(l) ?? (scheme === 'decimal' ? NUMBERED_BARE.exec(l) : null);
    if (!m) return null;
    const number = m[2] === undefined || m[2] === '' ? m[1]! : `${m[1]}.${m[2]}`;
    if (scheme === 'hundreds' && m[2] !== undefined) return null;
    if (scheme === 'decimal' && m[1]!.length > 2) return null;
    let title = m[3]!;
    let penalty: string | null = null;
    let rest = '';
    const tab = title.indexOf('\t');
    if (tab !== -1) {
      // after a tab: the penalty at the right margin (IPG 2009 on), or a run-in body (a PDF's font change)
      const after = title.slice(tab + 1).trim();
      title = title.slice(0, tab).trim();
      if (/^penalty$/i.test(after) || PENALTY.test(after)) penalty = after;
      // the decimal era has no run-in headings: a font change inside the title ("3.5 Innistrad Block …") is no break
      else if (scheme === 'decimal') title = `${title} ${after}`;
      else rest = after;
    }
    // IPG headings carry the penalty at the right margin; a PDF whose text layer has no tab there joins it to the title
    const margin = family === 'ipg' && penalty === null && rest === '' ? PENALTY_AFTER_TITLE.exec(title) : null;
    if (margin) {
      title = margin[1]!;
      penalty = margin[2]!;
    }
    // "… Theft of Tournament Material Penalty" (an HTML rendition joined the penalty box's label to the heading)
    const label = family === 'ipg' && penalty === null && rest === '' ? /^(.*\S)\s+Penalty$/.exec(title) : null;
    if (label) {
      title = label[1]!;
      penalty = 'Penalty';
    }
    const words = title.split(' ').length;
    if (scheme === 'decimal') {
      // a numbered list item is a sentence ("4. Opponents’ game-win percentage"); a heading is a short title in title case
      if (/[.;:,]$/.test(title) || words > 16 || (!marked && !isTitleCase(title))) return null;
    } else if (rest === '' && (/[.;:]$/.test(title) || words > 8)) {
      // "20. DEFINITION OF PENALTIES Caution: This is …": the capitals are the title
      const caps = /^((?:[A-Z0-9][A-Z0-9/&'’,()-]*\s+){1,}[A-Z0-9][A-Z0-9/&'’,()-]*)\s+(\S*[a-z].*)$/.exec(title);
      if (caps && caps[1]!.split(' ').length >= 2) {
        title = caps[1]!;
        rest = caps[2]!;
      }
    }
    if (scheme === 'decimal') {
      // (checked above)
    } else if (rest === '' && (/[.;:]$/.test(title) || words > 12)) {
      ({ title, rest } = splitRunIn(title));
      if (title.split(' ').length > 12 || /[.;:]$/.test(title)) return null;
    }
    if (!/^[A-Z0-9“"(]/.test(title)) return null;
    return { number, kind: 'section', title, rest, penalty };
  };

  const addBody = (i: number, l: string): void => {
    if (current === null) return;
    claimed.add(i);
    const p = PART.exec(l);
    const wholeLine = p !== null && (p[2] === '' || /^[A-Z]/.test(p[2]!));
    if (family === 'ipg' && wholeLine && (p[2] === '' || l.split(' ').length > 3)) {
      const name = p[1]!.toLowerCase().replace(/\s+/g, ' ');
      // the penalty box under an infraction's heading ("Penalty" / "Warning", IPG 2014 on) is the heading's
      // penalty, as when the heading line carries it ("… Missed Trigger\tPenalty" / "Warning"): not its text too
      if (partName(name) === 'penalty' && p[2] === '' && current.kind !== 'appendix' && current.text === '' && current.penalty === undefined) {
        const next = lines.slice(i + 1).find((x) => x !== '');
        if (next !== undefined && PENALTY.test(next) && !REL_HEADER.test(next)) {
          current.penalty = null;
          return;
        }
      }
      part = { name: partName(name), text: p[2]! };
      (current.policyParts ??= []).push(part);
      if (p[2] !== '') current.text += (current.text === '' ? '' : '\n') + l;
      else current.text += (current.text === '' ? '' : '\n') + l;
      return;
    }
    if (part?.name === 'examples' && /^(?:[A-Z]\.|\([A-Z]\))\s/.test(l)) {
      current.examples.push(l);
      return;
    }
    // an appendix has no penalty of its own: a quick reference's table ("Infraction", "Penalty", "Warning" …) is its text
    const infraction = current.kind !== 'appendix';
    if (infraction && part?.name === 'penalty' && current.penalty === undefined && (PENALTY.test(l) || REL_HEADER.test(l)))
      current.penalty = penaltyOfBox(l, lines, i);
    if (infraction && current.penalty === null && PENALTY.test(l) && current.text === '') {
      current.penalty = l;
      return;
    }
    if (part) part.text += (part.text === '' ? '' : '\n') + l;
    current.text += (current.text === '' ? '' : '\n') + l;
  };

  lines.forEach((l, i) => {
    if (l === '') return;
    if (CONTENTS.test(l)) {
      inContents = true;
      claimed.add(i);
      return;
    }
    if (TOC_LINE.test(raw[i]!.trim()) && (inContents || firstUnit === -1 || /(?:\.\s?){4,}/.test(l))) {
      claimed.add(i);
      return;
    }
    const h = heading(raw[i]!.trim().replace(/ {2,}/g, ' '), headingLines.has(i));
    // a rendition's links within the page: its contents before the first unit; after it, a section's own list
    // of its subsections (the blog pages), each of which comes again as a heading
    if (contentsLinks.has(i) && (firstUnit === -1 || (h !== null && nextRepeats(lines, i, h.number, heading)))) {
      if (firstUnit === -1) inContents = true;
      claimed.add(i);
      if (h !== null && h.kind !== 'appendix') contents.push(h.number);
      if (h !== null && h.rest === '') listedTitles.set(h.number, h.title);
      return;
    }
    // an appendix listed in the contents: its heading comes later, or (a rendition that left it out) the
    // contents listed numbered sections and none has come yet
    if (h !== null && inContents && h.kind === 'appendix' && ((firstUnit === -1 && contents.length > 0) || nextRepeats(lines, i, h.number, heading))) {
      claimed.add(i);
      if (contentsLinks.size > 0 && h.rest === '') listedTitles.set(h.number, h.title);
      return;
    }
    if (h !== null && inContents && h.kind !== 'appendix') {
      // Contents that repeat the headings without page numbers (2007-08): the first entry's heading
      // comes again later, and the entries run on while their numbers grow.
      const key = numberKey(h.number);
      const prevEntry = contents[contents.length - 1];
      if (prevEntry === undefined ? nextRepeats(lines, i, h.number, heading) : after(key, numberKey(prevEntry))) {
        contents.push(h.number);
        claimed.add(i);
        return;
      }
      inContents = false;
    }
    if (h !== null) {
      const key = h.kind === 'appendix' ? null : numberKey(h.number);
      const level = h.kind === 'appendix' ? 0 : levelOf(h.number, scheme);
      let ok = true;
      // appendix letters grow within a document; "Appendix A — Updated …" in a change list is no heading
      if (key === null && h.number <= lastAppendix) ok = false;
      if (key !== null) {
        if (last !== null && !after(key, last)) ok = false;
        else if (scheme === 'decimal' && last !== null) {
          // a section follows the one before; a subsection its section
          // a section follows the one before, or (2010-12: section 2 went) the one after it
          if (key.length === 1 && (key[0]! > last[0]! + 2 || key[0] === last[0])) ok = false;
          if (key.length === 1 && ok && key[0] === last[0]! + 2) {
            warnings.push({ line: i + 1, code: 'section-gap', message: `section ${h.number} follows section ${last[0]}` });
          }
          if (key.length === 2 && key[0] !== last[0]) ok = false;
          if (key.length === 2 && last.length === 2 && key[1]! > last[1]! + 1) {
            warnings.push({ line: i + 1, code: 'section-jump', message: `section ${h.number} follows ${last.join('.')}` });
          }
        } else if (scheme === 'decimal' && last === null && key[0] !== 1) ok = false;
      }
      if (ok) {
        if (key !== null) last = key;
        else {
          appendices = true;
          lastAppendix = h.number;
        }
        inContents = false;
        if (firstUnit === -1) firstUnit = i;
        claimed.add(i);
        let parent: string | null = null;
        for (let k = level - 1; k >= 0; k--) {
          const p = byLevel[k];
          if (p) {
            parent = p.number;
            break;
          }
        }
        const kind: RuleNode['kind'] = h.kind === 'appendix' ? 'appendix' : level === 0 ? 'section' : level === 1 ? 'rule' : 'subrule';
        const listed = listedTitles.get(h.number);
        if (listed !== undefined && h.rest === '' && h.title.startsWith(`${listed} `)) {
          h.rest = h.title.slice(listed.length + 1);
          h.title = listed;
        }
        const node: RuleNode = { number: h.number, parent: h.kind === 'appendix' ? null : parent, kind, text: '', title: h.title, examples: [], line: i + 1 };
        if (h.penalty !== null) node.penalty = /^penalty$/i.test(h.penalty) ? null : h.penalty;
        rules.push(node);
        byLevel[level] = node;
        for (let k = level + 1; k < byLevel.length; k++) byLevel[k] = null;
        current = node;
        part = null;
        if (h.rest !== '') addBody(i, h.rest);
        return;
      }
    }
    if (current === null) {
      introduction.push(l);
      claimed.add(i);
      return;
    }
    addBody(i, l);
  });
  for (const r of rules) if (r.penalty === null) delete r.penalty;
  const found = new Set(rules.map((r) => r.number));
  for (const n of contents) {
    if (!found.has(n))
      warnings.push({ line: null, code: 'missing-section', message: `section ${n} is in the contents but not found as a heading in the text` });
  }
  // the first lines with text: an HTML rendition's head holds blank lines where its markup was
  const head = lines
    .filter((l) => l !== '')
    .slice(0, 12)
    .join('\n');
  const stated = policyEffectiveDate(head);
  if (stated === null) warnings.push({ line: null, code: 'no-effective-date', message: 'the document states no effective date in its head' });
  const slipped = stated === null ? null : yearSlipOf(stated, lines.join('\n'));
  if (slipped !== null)
    warnings.push({
      line: null,
      code: 'date-corrected',
      message: `the document states ${stated}, a year before the latest date it gives its own contents (${slipped}); filed under ${slipped}`,
    });
  const effectiveDate = slipped ?? stated;
  // (a rendition that starts with its contents has no title line: calibre's MTR of January 2016)
  const title = lines.find((l, i) => l !== '' && !/^[®™©]$/.test(l) && !contentsLinks.has(i) && (firstUnit === -1 || i < firstUnit)) ?? null;
  const bodyLines = lines.filter((l) => l !== '').length;
  const unaccounted: number[] = [];
  lines.forEach((l, i) => {
    if (l !== '' && !claimed.has(i)) unaccounted.push(i + 1);
  });
  if (introduction.length > 0 && title !== null && introduction[0] === title) introduction = introduction.slice(1);
  return policyDocument(
    { family, format, effectiveDate, title, introduction: introduction.length > 0 ? introduction.join('\n') : null, rules, warnings },
    bodyLines,
    unaccounted,
  );
}

/** A whole tournament document of numbered units (no parts, glossary or index), with its lines' accounting. */
export function policyDocument(
  d: Pick<ParsedDocument, 'family' | 'format' | 'effectiveDate' | 'title' | 'introduction' | 'rules' | 'warnings'>,
  bodyLines: number,
  unaccounted: number[],
): ParsedDocument {
  return {
    ...d,
    complete: true,
    credits: null,
    parts: [],
    glossary: [],
    abilityWords: [],
    index: [],
    accounting: { bodyLines, accounted: bodyLines - unaccounted.length, unaccounted },
  };
}

/** Whether every word of a title but the small ones starts with a capital (or is no word). */
function isTitleCase(title: string): boolean {
  for (const w of title.split(/[\s/—–-]+/)) {
    if (w === '' || TITLE_WORDS.has(w.toLowerCase())) continue;
    if (/^[a-z]/.test(w)) return false;
  }
  return true;
}

function partName(name: string): PolicyPart['name'] {
  if (name.startsWith('definition')) return 'definition';
  if (name.startsWith('philosophy')) return 'philosophy';
  if (name.startsWith('additional')) return 'additional-remedy';
  if (name.startsWith('upgrade')) return 'upgrade';
  if (name.startsWith('example')) return 'examples';
  if (name.startsWith('penalty')) return 'penalty';
  return 'procedure';
}

/** Whether the heading numbered `number` occurs again after line `i` (a contents entry, then the heading itself). */
function nextRepeats(lines: string[], i: number, number: string, heading: (l: string) => Heading | null): boolean {
  for (let k = i + 1; k < lines.length; k++) {
    const h = heading(lines[k]!);
    if (h !== null && h.number === number) return true;
  }
  return false;
}
