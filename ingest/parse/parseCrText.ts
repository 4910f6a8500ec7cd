import type { GlossaryEntry, IndexEntry, ParsedDocument, ParseWarning, PartHeading, RuleNode } from '../../src/core/types.js';
import { emptyDocument } from './crLines.js';
import { checkStructure } from './checkStructure.js';
import { findEffectiveDate } from './effectiveDate.js';

// Rule-number patterns, applied to a trimmed line. Numbers never keep their trailing dot.
const RE_SUBRULE = /^(\d{3})\.(\d{1,3})([a-z]{1,2})\.?(?:\s+(.*))?$/;
const RE_RULE = /^(\d{3})\.(\d{1,3})\.?(?:\s+(.*))?$/;
const RE_SECTION = /^(\d{3})\.\s+(\S.*)$/;
// Damaged numbers seen in published files: "606. 8b Players", "901.4.All plane", "306.b If".
const RE_SUBRULE_DAMAGED = /^(\d{3})\.\s(\d{1,3})([a-z]{1,2})\.?\s+(.*)$/;
const RE_RULE_GLUED = /^(\d{3})\.(\d{1,3})\.([A-Z].*)$/;
const RE_SUBRULE_NO_RULE = /^(\d{3})\.([a-z])\.?\s+(.*)$/;
// A lone letter or page number left by conversion.
const RE_STRAY = /^(?:[A-Za-z]|\d{1,3}|[^\w\s])$/;
const RE_PART = /^(\d{1,2})\.\s+(\S.*)$/;
const RE_EXAMPLE = /^(?:example|examples)\s*:\s*(.*)$/i;
const RE_DECORATION = /^(?:[-=_*~]\s*){3,}$/;
const RE_FIRST_RULE = /^\s*100\.1\.?\s+\S/;
const RE_TERMINAL = /[.:;!?)"'”’\]]$/;
const RE_SENSE = /^\d{1,2}\.\s/;
const RE_BULLET = /^(?:[•·*]|-\s|\d+\.\s)/;
// A line that reads as a rule or a section heading: its number, then words ("424. Costs", "423.6c Some").
const RE_NUMBERED_LINE = /^\d{3}\.(?:\d{1,3}[a-z]{0,2}\.?)?\s+["“]?[A-Z]/;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Cheap check that a decoded text is an official Comprehensive Rules text file. */
export function isCrText(text: string): boolean {
  const head = text.slice(0, 20000);
  if (!/comprehensive\s+rules/i.test(head)) return false;
  // The Rulings Summaries cite "CompRules" and number rulings "E.13.Ruling.1": a different family.
  if (/^\s*[A-Z]\.\d+\.Ruling\.\d+/m.test(text.slice(0, 200000))) return false;
  if (/<html|<!doctype/i.test(text.slice(0, 2000))) return false;
  const lines = text.split('\n', 20000);
  let rules = 0;
  let sawFirst = false;
  for (const l of lines) {
    if (RE_FIRST_RULE.test(l)) sawFirst = true;
    if (/^\s*\d{3}\.\d{1,3}[a-z]{0,2}\.?\s+\S/.test(l) && ++rules > 20 && sawFirst) return true;
  }
  return false;
}

interface Line {
  /** Raw line without its newline. */
  raw: string;
  /** Trimmed text. */
  t: string;
  indent: number;
}

function indentOf(s: string): number {
  let i = 0;
  // any white space indents: a non-breaking space too
  while (i < s.length && /\s/.test(s[i]!)) i++;
  return i;
}

// (every letter counts here, l and o too: a misprinted letter must still sort)
function letterIndex(letters: string): number {
  const last = LETTERS.indexOf(letters.charAt(letters.length - 1)) + 1;
  return letters.length === 1 ? last : LETTERS.length * (LETTERS.indexOf(letters.charAt(0)) + 1) + last;
}

/** Builds joins of continuation lines: "\n" between published lines, " " across hard wraps. */
class Joiner {
  constructor(
    readonly wrapped: boolean,
    readonly width: number,
  ) {}

  sep(prev: Line, next: Line, afterBlank: boolean, baseIndent: number): string {
    // Hard-wrapped text (1999 at 78 columns, 2000s PDF exports at ~105 columns in a proportional
    // font, so line length says nothing): lines join with a space unless a blank line, a deeper
    // indent or a list bullet starts a new published paragraph.
    if (!this.wrapped || afterBlank || next.indent >= baseIndent + 2 || RE_BULLET.test(next.t)) return '\n';
    if (/[A-Za-z]-$/.test(prev.t) && /^[A-Za-z]/.test(next.t) && !/--$/.test(prev.t)) {
      // A hyphen at a wrap joins a compound ("Snow-\nCovered", "state-\nbased"); a suspended one
      // keeps its space before "and"/"or" ("power-\nand toughness-changing").
      return /^(?:and|or|nor)\s/.test(next.t) ? ' ' : '';
    }
    return ' ';
  }
}

/** Parses an official Comprehensive Rules text file (any era, 1999–2022) into the document model. */
export function parseCrText(text: string): ParsedDocument {
  const rawLines = text.split('\n');
  const lines: Line[] = rawLines.map((raw) => {
    const indent = indentOf(raw);
    return { raw, t: raw.trim(), indent };
  });
  const n = lines.length;
  const warnings: ParseWarning[] = [];
  const claimed = new Uint8Array(n);

  // Body start: the first "100.1." rule, walked back to its section and part headings.
  let first = -1;
  for (let i = 0; i < n; i++) {
    if (RE_FIRST_RULE.test(lines[i]!.raw)) {
      first = i;
      break;
    }
  }
  const doc: ParsedDocument = {
    ...emptyDocument('cr-text'),
    effectiveDate: findEffectiveDate(text),
    complete: true,
    title: findTitle(lines),
    warnings,
  };
  if (doc.effectiveDate === null) {
    warnings.push({ line: null, code: 'no-effective-date', message: 'the document states no effective date' });
  }
  if (first < 0) {
    warnings.push({ line: null, code: 'no-rules', message: 'no rule 100.1 found: not a Comprehensive Rules body' });
    doc.complete = false;
    return doc;
  }
  let bodyStart = first;
  for (let i = first - 1; i >= 0 && i >= first - 30; i--) {
    const t = lines[i]!.t;
    if (RE_SECTION.test(t) && t.startsWith('100.')) bodyStart = i;
    else if (/^1\.\s+\S/.test(t)) {
      bodyStart = i;
      break;
    }
  }

  // Glossary, index and credits headings after the body.
  let glossStart = -1;
  let glossEnd = n;
  let indexStart = -1;
  let creditsStart = -1;
  for (let i = first; i < n; i++) {
    const t = lines[i]!.t;
    if (glossStart < 0 && /^glossary$/i.test(t)) glossStart = i;
    else if (glossStart >= 0 && indexStart < 0 && creditsStart < 0 && /^index$/i.test(t)) indexStart = i;
    else if (glossStart >= 0 && creditsStart < 0 && /^credits$/i.test(t)) creditsStart = i;
  }
  if (indexStart >= 0) glossEnd = indexStart;
  else if (creditsStart >= 0) glossEnd = creditsStart;
  const bodyEnd = glossStart >= 0 ? glossStart : creditsStart >= 0 ? creditsStart : n;
  // Rule headings in front of the glossary and decoration lines around it belong to it.
  const glossHeadEnd = glossStart >= 0 ? glossStart : bodyEnd;

  const joiner = detectWrapping(lines, bodyStart, bodyEnd);

  doc.introduction = findIntroduction(lines, bodyStart, joiner);

  parseBody(lines, bodyStart, glossHeadEnd, doc, claimed, joiner, warnings);
  if (glossStart >= 0) {
    claimed[glossStart] = 1;
    parseGlossary(lines, glossStart + 1, glossEnd, doc.glossary, claimed, joiner, warnings);
  }
  if (indexStart >= 0) {
    doc.index = parseIndex(lines, indexStart + 1, creditsStart >= 0 ? creditsStart : n);
  }
  if (creditsStart >= 0) {
    const out: string[] = [];
    for (let i = creditsStart + 1; i < n; i++) {
      const l = lines[i]!;
      if (l.t && !RE_DECORATION.test(l.t)) out.push(l.t);
    }
    doc.credits = out.join('\n') || null;
  }
  doc.abilityWords = findAbilityWords(doc);

  // Accounting over the rules and glossary parts.
  let body = 0;
  let accounted = 0;
  for (let i = bodyStart; i < glossEnd; i++) {
    const l = lines[i]!;
    if (!l.t) continue;
    body++;
    if (claimed[i]) accounted++;
    else {
      doc.accounting.unaccounted.push(i + 1);
      warnings.push({
        line: i + 1,
        code: 'unaccounted-line',
        message: `line ${i + 1} is not part of any rule, example, heading or glossary entry: "${truncate(l.t, 80)}"`,
      });
    }
  }
  doc.accounting.bodyLines = body;
  doc.accounting.accounted = accounted;

  checkTruncation(doc, glossStart, creditsStart, warnings);
  warnings.push(...checkStructure(doc, text));
  return doc;
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function findTitle(lines: Line[]): string | null {
  const parts: string[] = [];
  for (const l of lines) {
    if (!l.t) {
      if (parts.length) break;
      continue;
    }
    if (RE_DECORATION.test(l.t)) {
      if (parts.length) break;
      continue;
    }
    parts.push(l.t.replace(/\s{2,}\d{1,2}\/\d{1,2}\/\d{2,4}$/, ''));
    if (parts.length >= 3) break;
  }
  return parts.length ? parts.join(' ') : null;
}

/** Hard-wrapped editions (1999, early 2000s) have short lines; later ones put each rule on one line. */
function detectWrapping(lines: Line[], from: number, to: number): Joiner {
  const lens: number[] = [];
  for (let i = from; i < to; i++) {
    const len = lines[i]!.raw.trimEnd().length;
    if (len > 0) lens.push(len);
  }
  lens.sort((a, b) => a - b);
  const p95 = lens[Math.floor(lens.length * 0.95)] ?? 0;
  const p99 = lens[Math.floor(lens.length * 0.99)] ?? 0;
  return p95 > 0 && p95 < 140 ? new Joiner(true, p99) : new Joiner(false, 0);
}

function findIntroduction(lines: Line[], bodyStart: number, joiner: Joiner): string | null {
  let start = -1;
  for (let i = bodyStart - 1; i >= 0; i--) {
    if (/^introduction$/i.test(lines[i]!.t)) {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  const paras: string[] = [];
  let cur = '';
  let prev: Line | null = null;
  for (let i = start + 1; i < bodyStart; i++) {
    const l = lines[i]!;
    if (/^contents$/i.test(l.t) || RE_DECORATION.test(l.t) || /^1\.\s+\S/.test(l.t)) break;
    if (!l.t) {
      if (cur) paras.push(cur);
      cur = '';
      prev = null;
      continue;
    }
    cur = prev ? cur + joiner.sep(prev, l, false, l.indent) + l.t : l.t;
    prev = l;
  }
  if (cur) paras.push(cur);
  return paras.length ? paras.join('\n') : null;
}

interface NumberMatch {
  number: string;
  parent: string | null;
  kind: 'section' | 'rule' | 'subrule';
  text: string;
  rule: number;
  letter: number;
  damaged: boolean;
}

/** Reads a rule number at the start of a line, including damaged ones ("606. 8b", "901.4.All", "306.b"). */
function matchNumber(t: string, cur: RuleNode | null): NumberMatch | null {
  let m = RE_SUBRULE.exec(t) ?? RE_SUBRULE_DAMAGED.exec(t);
  if (m) {
    const parent = `${m[1]}.${m[2]}`;
    return {
      number: parent + m[3],
      parent,
      kind: 'subrule',
      text: m[4] ?? '',
      rule: Number(m[2]),
      letter: letterIndex(m[3]!),
      damaged: !RE_SUBRULE.test(t),
    };
  }
  if ((m = RE_RULE.exec(t) ?? RE_RULE_GLUED.exec(t))) {
    return { number: `${m[1]}.${m[2]}`, parent: m[1]!, kind: 'rule', text: m[3] ?? '', rule: Number(m[2]), letter: 0, damaged: false };
  }
  if ((m = RE_SUBRULE_NO_RULE.exec(t)) && cur && cur.number.startsWith(`${m[1]}.`) && cur.kind !== 'section') {
    const parent = cur.kind === 'subrule' ? cur.parent! : cur.number;
    const rule = Number(parent.slice(4));
    return { number: parent + m[2], parent, kind: 'subrule', text: m[3] ?? '', rule, letter: letterIndex(m[2]!), damaged: true };
  }
  if ((m = RE_SECTION.exec(t))) {
    return { number: m[1]!, parent: null, kind: 'section', text: m[2]!, rule: 0, letter: 0, damaged: false };
  }
  return null;
}

function ruleKey(section: number, rule: number, letter: number): number {
  return section * 1_000_000 + rule * 1000 + letter;
}

function parseBody(lines: Line[], from: number, to: number, doc: ParsedDocument, claimed: Uint8Array, joiner: Joiner, warnings: ParseWarning[]): void {
  let part = 0;
  let section = -1;
  const seen = new Set<string>();
  let lastKey = -1;
  let cur: RuleNode | null = null;
  let curBase = 0;
  let inExample = false;
  let prev: Line | null = null;
  let afterBlank = false;

  const start = (node: RuleNode, l: Line): void => {
    doc.rules.push(node);
    cur = node;
    curBase = l.indent;
    inExample = false;
  };

  for (let i = from; i < to; i++) {
    const l = lines[i]!;
    const t = l.t;
    if (!t) {
      afterBlank = true;
      continue;
    }
    if (RE_DECORATION.test(t)) {
      claimed[i] = 1;
      afterBlank = true;
      continue;
    }
    // Hard-wrapped editions start every rule after a blank line; a number at the start of a
    // wrapped line is a cross-reference ("see rule\n419.8, ...").
    const canStart = afterBlank || !joiner.wrapped || prev === null;
    let num = canStart ? matchNumber(t, cur) : null;
    if (num && num.kind !== 'section' && section >= 0 && Number(num.number.slice(0, 3)) !== section) {
      num = misnumbered(num, section, nextSection(lines, i + 1, to), lastKey, warnings, i);
    } else if (num && num.kind === 'rule' && !seen.has(num.number) && num.rule !== Math.floor((lastKey % 1_000_000) / 1000) + 1) {
      // (only a rule that does not follow the one before can be mistyped)
      num = mistypedRule(num, nextNumber(lines, i + 1, to), seen, lastKey, warnings, i);
    }
    if (num && (num.kind !== 'section' || Number(num.number) > section)) {
      const s = Number(num.number.slice(0, 3));
      const key = ruleKey(s, num.rule, num.letter);
      if (num.damaged) {
        warnings.push({ line: i + 1, code: 'malformed-number', message: `rule number printed as "${truncate(t, 24)}", read as ${num.number}` });
      }
      if (seen.has(num.number)) {
        warnings.push({ line: i + 1, code: 'duplicate-number', message: `rule ${num.number} appears more than once` });
      } else if (key <= lastKey) {
        warnings.push({ line: i + 1, code: 'out-of-order', message: `rule ${num.number} follows ${doc.rules[doc.rules.length - 1]?.number ?? 'nothing'}` });
      } else if (num.kind !== 'section' && s > section) {
        warnings.push({ line: i + 1, code: 'missing-section', message: `rule ${num.number} appears without a heading for section ${s}` });
        section = s;
      }
      seen.add(num.number);
      start({ number: num.number, parent: num.parent, kind: num.kind, text: num.text, examples: [], line: i + 1 }, l);
      lastKey = key;
      if (num.kind === 'section') section = s;
      claimed[i] = 1;
      prev = l;
      afterBlank = false;
      continue;
    }
    let m: RegExpExecArray | null;
    if (canStart && (m = RE_PART.exec(t))) {
      const p = Number(m[1]);
      if (p === part + 1) {
        const heading: PartHeading = { number: m[1]!, title: m[2]!, line: i + 1 };
        doc.parts.push(heading);
        part = p;
        cur = null;
        claimed[i] = 1;
        prev = l;
        afterBlank = false;
        continue;
      }
    }
    if (RE_STRAY.test(t)) {
      // Conversion debris (a lone letter, a page number): claimed as noise, reported line by line.
      warnings.push({ line: i + 1, code: 'stray-line', message: `stray line "${t}" between rules ignored` });
      claimed[i] = 1;
      continue;
    }
    const ex = RE_EXAMPLE.exec(t);
    const node = cur as RuleNode | null;
    if (ex && node) {
      node.examples.push(ex[1] ?? '');
      inExample = true;
      claimed[i] = 1;
      prev = l;
      afterBlank = false;
      continue;
    }
    if (node && prev) {
      // "See rule\n103.4. If a player …" is a cross-reference wrapped before its number
      if (RE_NUMBERED_LINE.test(t) && !/\b(?:rules?|see|and|or|of|in)[,]?$/i.test(prev.t)) {
        warnings.push({
          line: i + 1,
          code: 'swallowed-rule',
          message: `a line numbered like a rule or heading is stored as text of ${node.number}: "${truncate(t, 60)}"`,
        });
      }
      if (inExample) {
        const k = node.examples.length - 1;
        node.examples[k] = node.examples[k]! + joiner.sep(prev, l, afterBlank, curBase) + t;
      } else if (node.text === '') {
        node.text = t;
      } else {
        node.text += joiner.sep(prev, l, afterBlank, curBase) + t;
      }
      claimed[i] = 1;
      prev = l;
      afterBlank = false;
      continue;
    }
    prev = l;
    afterBlank = false;
  }
}

/** The section of the next line that starts with a rule number ("423.3. …"), or -1. */
function nextSection(lines: Line[], from: number, to: number): number {
  for (let i = from; i < to && i < from + 200; i++) {
    const m = /^(\d{3})\.(?:\d|\s)/.exec(lines[i]!.t);
    if (m) return Number(m[1]);
  }
  return -1;
}

/** The number the next numbered line starts with ("505.5a"), or null. */
function nextNumber(lines: Line[], from: number, to: number): string | null {
  for (let i = from; i < to && i < from + 200; i++) {
    const m = /^(\d{3}\.\d{1,3}[a-z]{0,2})\.?\s/.exec(lines[i]!.t);
    if (m) return m[1]!;
    if (/^\d{3}\.\s/.test(lines[i]!.t)) return null;
  }
  return null;
}

/**
 * A rule whose subrules name another number that fits the order is that number, mistyped:
 * "505.54." before 505.5a and 505.5b (2010-06-18) is rule 505.5. Read with a warning.
 */
function mistypedRule(num: NumberMatch, next: string | null, seen: Set<string>, lastKey: number, warnings: ParseWarning[], i: number): NumberMatch {
  const m = next === null ? null : /^(\d{3})\.(\d{1,3})[a-z]{1,2}$/.exec(next);
  if (!m || next!.startsWith(`${num.number}`) || seen.has(`${m[1]}.${m[2]}`) || m[1] !== num.number.slice(0, 3)) return num;
  const rule = Number(m[2]);
  const number = `${m[1]}.${m[2]}`;
  // the printed number must hold the intended one ("505.54" holds "505.5") and keep the order
  if (!num.number.startsWith(number) || ruleKey(Number(m[1]), rule, 0) <= lastKey) return num;
  warnings.push({ line: i + 1, code: 'malformed-number', message: `rule number printed as ${num.number} before its subrules ${next}, read as ${number}` });
  return { ...num, number, rule };
}

/**
 * A rule numbered outside the current section with the rules after it back in that section is a
 * published typo ("432.2b" between 423.2a and 423.3, 2007): read in the current section when that
 * keeps the order, otherwise left out of the section count so the next real heading is still taken.
 */
function misnumbered(num: NumberMatch, section: number, next: number, lastKey: number, warnings: ParseWarning[], i: number): NumberMatch {
  if (next !== section) return num;
  const printed = num.number;
  const number = `${section}${printed.slice(3)}`;
  if (ruleKey(section, num.rule, num.letter) <= lastKey) return num;
  warnings.push({ line: i + 1, code: 'malformed-number', message: `rule number printed as ${printed} between rules of section ${section}, read as ${number}` });
  return { ...num, number, parent: num.parent === null ? null : `${section}${num.parent.slice(3)}` };
}

function parseGlossary(lines: Line[], from: number, to: number, out: GlossaryEntry[], claimed: Uint8Array, joiner: Joiner, warnings: ParseWarning[]): void {
  let cur: GlossaryEntry | null = null;
  let hasDef = false;
  let termIndent = -1;
  let base = 0;
  let prev: Line | null = null;
  let afterBlank = true;
  for (let i = from; i < to; i++) {
    const l = lines[i]!;
    if (!l.t) {
      afterBlank = true;
      continue;
    }
    if (RE_DECORATION.test(l.t)) {
      claimed[i] = 1;
      afterBlank = true;
      continue;
    }
    if (termIndent < 0) termIndent = l.indent;
    // 1999-11 separates numbered senses ("1. ...", "2. ...") of one definition with blank lines.
    const sense = afterBlank && hasDef && RE_SENSE.test(l.t);
    // A term with no blank line before it: a term-shaped line after a finished definition.
    const glued =
      !afterBlank && hasDef && prev !== null && l.indent <= termIndent && isTermShaped(l.t) && RE_TERMINAL.test(prev.t) && nextHasText(lines, i + 1, to);
    if (glued && joiner.wrapped) {
      // hard-wrapped text: a short last line of a sentence looks the same, so it is only reported
      warnings.push({
        line: i + 1,
        code: 'swallowed-term',
        message: `a line shaped like a glossary term is stored in the definition of "${truncate(cur!.term, 40)}": "${truncate(l.t, 40)}"`,
      });
    }
    if (cur === null || (afterBlank && l.indent <= termIndent && !sense) || (glued && !joiner.wrapped)) {
      // "Ability1. Text on an object…" (2021-06-18): a term glued to its first numbered sense
      const senses = /^(.*?[^\d\s.])(1\.\s.*)$/.exec(l.t);
      if (senses && /^2\.\s/.test(lines[i + 1]?.t ?? '') && !senses[1]!.includes('. ')) {
        cur = { term: senses[1]!, definition: senses[2]!, line: i + 1 };
        base = l.indent;
        hasDef = true;
        warnings.push({ line: i + 1, code: 'glued-term', message: `glossary term "${truncate(senses[1]!, 40)}" printed glued to its first sense; split` });
      } else {
        if (glued)
          warnings.push({
            line: i + 1,
            code: 'glued-term',
            message: `glossary term "${truncate(l.t, 40)}" printed with no blank line before it; split from "${truncate(cur!.term, 40)}"`,
          });
        cur = { term: l.t, definition: '', line: i + 1 };
        hasDef = false;
      }
      out.push(cur);
    } else if (!hasDef) {
      cur.definition = l.t;
      base = l.indent;
      hasDef = true;
    } else {
      if (!joiner.wrapped && !afterBlank && isTermShaped(l.t) && nextHasText(lines, i + 1, to) && !glued) {
        warnings.push({
          line: i + 1,
          code: 'swallowed-term',
          message: `a line shaped like a glossary term is stored in the definition of "${truncate(cur.term, 40)}": "${truncate(l.t, 40)}"`,
        });
      }
      cur.definition += joiner.sep(prev!, l, afterBlank, base) + l.t;
    }
    claimed[i] = 1;
    prev = l;
    afterBlank = false;
  }
  for (const e of out) {
    if (!e.definition) {
      warnings.push({ line: e.line, code: 'glossary-no-definition', message: `glossary term "${truncate(e.term, 60)}" has no definition` });
    }
  }
}

/** A glossary term's shape: short, capitalized, not a sentence or a numbered sense. */
function isTermShaped(t: string): boolean {
  return t.length <= 60 && /^[A-Z0-9"“‘(]/.test(t) && !RE_TERMINAL.test(t) && !RE_SENSE.test(t) && !/[,;]$/.test(t);
}

function nextHasText(lines: Line[], from: number, to: number): boolean {
  return from < to && lines[from]!.t !== '';
}

/** The 1999 back-of-book index: "Abilities, 402" with indented sub-topics. */
function parseIndex(lines: Line[], from: number, to: number): IndexEntry[] {
  const out: IndexEntry[] = [];
  let head = '';
  for (let i = from; i < to; i++) {
    const l = lines[i]!;
    if (!l.t || RE_DECORATION.test(l.t)) continue;
    const m = /^(.*?),\s*((?:\d{3}(?:\.\d+[a-z]{0,2})?(?:-\S+)?(?:,\s*)?)+)$/.exec(l.t);
    const topic = m ? m[1]! : l.t;
    const targets = m ? m[2]!.split(/,\s*/).filter(Boolean) : [];
    if (l.indent === 0) head = topic;
    out.push({ topic: l.indent === 0 ? topic : `${head}: ${topic}`, targets });
  }
  return out;
}

function findAbilityWords(doc: ParsedDocument): string[] {
  const sources: string[] = [];
  for (const r of doc.rules) if (/ability words? (?:are|is)\b/i.test(r.text)) sources.push(r.text);
  for (const g of doc.glossary) if (/^ability words?$/i.test(g.term)) sources.push(g.definition);
  for (const s of sources) {
    const m = /(?:the ability words are|list of ability words[^:]*?(?:is|are) as follows:)\s*([^.]*)\./i.exec(s);
    if (!m) continue;
    return m[1]!
      .split(/\s*,\s*(?:and\s+)?|\s+and\s+/)
      .map((w) => w.trim())
      .filter((w) => w.length > 0);
  }
  return [];
}

function checkTruncation(doc: ParsedDocument, glossStart: number, creditsStart: number, warnings: ParseWarning[]): void {
  const reasons: string[] = [];
  if (glossStart < 0) reasons.push('no glossary');
  else if (doc.glossary.length < 20 && doc.rules.length > 300) reasons.push(`only ${doc.glossary.length} glossary entries`);
  if (glossStart >= 0 && creditsStart < 0) {
    const last = doc.glossary[doc.glossary.length - 1];
    if (last && !RE_TERMINAL.test(last.definition)) reasons.push('the glossary ends mid-sentence');
  }
  const lastRule = doc.rules[doc.rules.length - 1];
  if (glossStart < 0 && lastRule && lastRule.kind !== 'section') {
    const text = lastRule.examples.length ? lastRule.examples[lastRule.examples.length - 1]! : lastRule.text;
    if (!RE_TERMINAL.test(text)) reasons.push(`rule ${lastRule.number} ends mid-sentence`);
  }
  const lastPart = doc.parts[doc.parts.length - 1];
  if (glossStart < 0 && lastPart && lastRule) {
    reasons.push(`the rules stop in part ${lastPart.number} at rule ${lastRule.number}`);
  }
  if (reasons.length) {
    doc.complete = false;
    warnings.push({ line: null, code: 'truncated', message: `the document looks truncated: ${reasons.join('; ')}` });
  }
}
