import { checkStructure } from './checkStructure.js';
import { findEffectiveDate } from './effectiveDate.js';
import type { GlossaryEntry, LineAccounting, ParsedDocument, ParseWarning, PartHeading, RuleNode, SourceFormat } from '../../src/core/types.js';

/** One logical line of a source after format-specific cleanup (bullets, Markdown, HTML blocks). */
export interface SourceLine {
  text: string;
  /** 1-based line in the decoded source. */
  line: number;
  /** A rule number the source attached to this line out of band (an HTML id/name anchor). */
  anchor?: string;
  /** Glossary role given by the markup (HTML dt/dd). */
  role?: 'term' | 'definition' | 'heading';
  /** True when this line starts a new paragraph/block: it cannot continue the previous rule. */
  block?: boolean;
}

const RULE_RE = /^(\d{3})\.(\d{1,3})([a-z]{1,2})?\.?(?=\s)\s*(.*)$/;
const SECTION_RE = /^(\d{3})\.(?=\s)\s*(.*)$/;
const PART_RE = /^([1-9])\.\s+([A-Z][^.]{2,60})$/;
const EXAMPLE_RE = /^Example:\s*(.*)$/;

const NOISE = new Set([
  'table of contents',
  'contents',
  'top',
  'back to top',
  'return to top',
  'return to rules index',
  'return to index',
  'next',
  'previous',
  '---',
  '***',
  '___',
  'glossary',
]);

/** Parses a CR rule number such as "100.1a", "100.1" or "100" into its number, parent and kind. */
export function ruleIdentity(number: string): Pick<RuleNode, 'number' | 'parent' | 'kind'> | null {
  const m = /^(\d{3})(?:\.(\d{1,3})([a-z]{1,2})?)?\.?$/.exec(number);
  if (!m) return null;
  const [, sec, n, letter] = m;
  if (n === undefined) return { number: sec!, parent: null, kind: 'section' };
  if (letter === undefined) return { number: `${sec}.${n}`, parent: sec!, kind: 'rule' };
  return { number: `${sec}.${n}${letter}`, parent: `${sec}.${n}`, kind: 'subrule' };
}

/** True for navigation and decoration lines that carry no rules text. */
function isNoiseLine(text: string): boolean {
  const t = text.trim().toLowerCase().replace(/[:.]$/, '');
  return NOISE.has(t) || /^[-*_=\s]{3,}$/.test(t) || /^(?:↑|\^)\s*(?:top)?$/.test(t);
}

/** An empty ParsedDocument of the CR family in the given format. */
export function emptyDocument(format: SourceFormat): ParsedDocument {
  return {
    family: 'cr',
    format,
    effectiveDate: null,
    complete: false,
    title: null,
    introduction: null,
    credits: null,
    parts: [],
    rules: [],
    glossary: [],
    abilityWords: [],
    index: [],
    accounting: { bodyLines: 0, accounted: 0, unaccounted: [] },
    warnings: [],
  };
}

interface BuildOptions {
  format: SourceFormat;
  title?: string | null;
  /**
   * When true, unclaimed lines only count as unaccounted if most lines are rules: a wiki
   * article's prose is outside the rules part, a rules page's stray line is not.
   */
  proseTolerant?: boolean;
}

/**
 * Builds a CR-family ParsedDocument from cleaned lines: rules at every depth, examples,
 * part and section headings, glossary entries marked by the markup, line accounting.
 */
export function buildCrDocument(lines: SourceLine[], opts: BuildOptions): ParsedDocument {
  const doc = emptyDocument(opts.format);
  doc.title = opts.title ?? null;
  const byNumber = new Map<string, RuleNode>();
  const unclaimed: SourceLine[] = [];
  const warnings: ParseWarning[] = [];
  let body = 0;
  let ruleLines = 0;
  // What the previous non-blank line extended: a rule, its last example, a glossary entry, or nothing.
  let open: { rule: RuleNode; example: boolean } | null = null;
  let gloss: GlossaryEntry | null = null;
  let pendingPart: { title: string; line: number } | null = null;

  const addPart = (p: PartHeading): void => {
    if (!doc.parts.some((q) => q.number === p.number)) doc.parts.push(p);
  };

  for (const src of lines) {
    let text = src.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    if (doc.effectiveDate === null) doc.effectiveDate = findEffectiveDate(text);
    if (/^Magic:? The Gathering(?:®|™|\(R\)|\(TM\))? Comprehensive Rules$/i.test(text) || /^Comprehensive Rules$/i.test(text)) {
      doc.title ??= text;
      continue;
    }
    if (text.length < 80 && findEffectiveDate(text) !== null) continue;
    if (isNoiseLine(text) && src.role !== 'term') {
      if (text.toLowerCase().startsWith('glossary')) gloss = null;
      open = null;
      continue;
    }
    body++;
    if (src.anchor && !/^\d{3}\./.test(text)) {
      const id = ruleIdentity(src.anchor);
      if (id) text = `${id.number}${id.kind === 'subrule' ? '' : '.'} ${text}`;
    }

    if (src.role === 'term') {
      gloss = { term: text, definition: '', line: src.line };
      doc.glossary.push(gloss);
      open = null;
      continue;
    }
    if (src.role === 'definition' && gloss) {
      gloss.definition = gloss.definition ? `${gloss.definition}\n${text}` : text;
      continue;
    }

    const chapter = /^\*?Chapter:\s*(.+?)\*?$/.exec(text);
    if (chapter) {
      pendingPart = { title: chapter[1]!.trim(), line: src.line };
      open = null;
      continue;
    }
    const part = PART_RE.exec(text);
    if (part && !RULE_RE.test(text)) {
      addPart({ number: part[1]!, title: part[2]!.trim(), line: src.line });
      open = null;
      continue;
    }
    const rule = RULE_RE.exec(text);
    const section = rule ? null : SECTION_RE.exec(text);
    if (rule || section) {
      const num = rule ? `${rule[1]}.${rule[2]}${rule[3] ?? ''}` : section![1]!;
      const body_ = (rule ? rule[4] : section![2])!.trim();
      const id = ruleIdentity(num)!;
      const existing = byNumber.get(id.number);
      ruleLines++;
      if (existing) {
        // A Markdown heading and the rule line after it name the same section: one node.
        if (existing.text !== body_) {
          warnings.push({
            line: src.line,
            code: 'duplicate-rule',
            message: `rule ${id.number} appears again with different text (first at line ${existing.line})`,
          });
        }
        open = { rule: existing, example: false };
        continue;
      }
      if (id.kind === 'section' && pendingPart) {
        addPart({ number: id.number[0]!, title: pendingPart.title, line: pendingPart.line });
        pendingPart = null;
      }
      const node: RuleNode = { ...id, text: body_, examples: [], line: src.line };
      doc.rules.push(node);
      byNumber.set(id.number, node);
      open = { rule: node, example: false };
      gloss = null;
      continue;
    }
    const example = EXAMPLE_RE.exec(text);
    if (example && open) {
      open.rule.examples.push(example[1]!.trim());
      open.example = true;
      ruleLines++;
      continue;
    }
    if (open && !src.block) {
      // A wrapped line continues whatever the previous line started.
      const ex = open.rule.examples;
      if (open.example && ex.length > 0) ex[ex.length - 1] = `${ex[ex.length - 1]} ${text}`;
      else open.rule.text = open.rule.text ? `${open.rule.text} ${text}` : text;
      continue;
    }
    if (gloss && !src.block && src.role !== 'heading') {
      gloss.definition = gloss.definition ? `${gloss.definition}\n${text}` : text;
      continue;
    }
    open = null;
    unclaimed.push({ ...src, text });
  }

  if (pendingPart) {
    // The chapter line came after its section's heading (Markdown "# 700. General" first).
    const p = pendingPart;
    const sec = doc.rules.find((r) => r.kind === 'section' && r.line >= p.line) ?? doc.rules.filter((r) => r.kind === 'section' && r.line < p.line).pop();
    if (sec) addPart({ number: sec.number[0]!, title: p.title, line: p.line });
  }

  const counted = opts.proseTolerant && ruleLines < unclaimed.length ? [] : unclaimed;
  const accounting: LineAccounting = {
    bodyLines: body - (unclaimed.length - counted.length),
    accounted: body - unclaimed.length,
    unaccounted: counted.map((l) => l.line),
  };
  doc.accounting = accounting;
  for (const l of counted) {
    warnings.push({ line: l.line, code: 'unaccounted-line', message: `not a rule, example or heading: ${clip(l.text)}` });
  }
  if (doc.rules.length === 0) warnings.push({ line: null, code: 'no-rules', message: 'no rules found' });
  warnings.push(...checkStructure(doc));
  doc.warnings = warnings;
  return doc;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
