import { policyDocument, policyEffectiveDate } from './parsePolicy.js';
import type { ParsedDocument, RuleNode, SourceFormat } from '../../src/core/types.js';

/** The title crkb gives the JAR's opening paragraphs, which the document leaves without a heading. */
const JAR_INTRODUCTION = 'Introduction';

// a date line of the head: "Updated September 26, 2014", "Effective January 21, 2019", "Last updated …"
const DATE_LINE = /^(?:last\s+)?(?:updated|effective)\b/i;
// a paragraph ends with a full stop, "!", "?" or ":" (after a closing quote or bracket, if any)
const SENTENCE_END = /[.!?:]["”’)]*$/;

/** Whether a line is one of the JAR's headings ("Common Issues", "Serious Problems"): a few capitalised words, no full stop. */
function isHeading(l: string): boolean {
  const words = l.split(' ');
  return words.length <= 6 && !SENTENCE_END.test(l) && words.every((w) => /^[A-Z]/.test(w));
}

/**
 * Parses the Judging at Regular REL document (JAR) from its text, one paragraph a line (a PDF's cleaned text,
 * an HTML rendition's blocks). The JAR numbers nothing, so its units get numbers from their position: the
 * opening paragraphs are unit 0 ("Introduction", crkb's title), each heading ("Common Issues") a unit 1, 2, …
 * in document order, and under a heading whose first paragraph is a sentence without a full stop (the issue in
 * bold, "A player forgets a triggered ability …") each such sentence a unit 1.1, 1.2, … whose text is the
 * remedy below it. These numbers are crkb's, not published ones. The title and the date lines are front
 * matter; a line that starts in lower case continues the line before (a rendition's `<br>` inside a
 * paragraph). Every other line lands in a unit. Pure.
 */
export function parseJar(text: string, format: SourceFormat): ParsedDocument {
  const lines = text.split('\n').map((l) => l.replace(/[ \u00a0]+/g, ' ').trim());
  const rules: RuleNode[] = [];
  let title: string | null = null;
  const head: string[] = [];
  let section: RuleNode | null = null;
  let current: RuleNode | null = null;
  let issues = false;
  const add = (node: RuleNode): RuleNode => {
    rules.push(node);
    return node;
  };
  // paragraphs: a line that starts in lower case continues the one before (a rendition's <br> inside a paragraph)
  const paragraphs: Array<{ text: string; line: number }> = [];
  lines.forEach((l, i) => {
    if (l === '') return;
    const last = paragraphs.at(-1);
    if (last !== undefined && paragraphs.length > 1 && /^[a-z]/.test(l)) last.text += ` ${l}`;
    else paragraphs.push({ text: l, line: i + 1 });
  });
  for (const { text: l, line } of paragraphs) {
    if (title === null) {
      title = l;
      head.push(l);
      continue;
    }
    if (current === null && DATE_LINE.test(l)) {
      head.push(l);
      continue;
    }
    if (isHeading(l)) {
      const number = String(rules.filter((r) => r.parent === null && r.number !== '0').length + 1);
      section = current = add({ number, parent: null, kind: 'section', text: '', title: l, examples: [], line });
      issues = false;
      continue;
    }
    current ??= add({ number: '0', parent: null, kind: 'section', text: '', title: JAR_INTRODUCTION, examples: [], line });
    // under a heading, its first paragraph without a full stop opens its issues; after that, each such paragraph is one
    if (section !== null && !SENTENCE_END.test(l) && (issues || (current === section && section.text === ''))) {
      issues = true;
      const n = rules.filter((r) => r.parent === section!.number).length + 1;
      current = add({ number: `${section.number}.${n}`, parent: section.number, kind: 'rule', text: '', title: l, examples: [], line });
      continue;
    }
    current.text += (current.text === '' ? '' : '\n') + l;
  }
  // every line is a paragraph or part of one, and every paragraph lands in the head or a unit: none is unaccounted
  // (that no words are lost on the way is what parseJar's tests check)
  const bodyLines = lines.filter((l) => l !== '').length;
  const effectiveDate = policyEffectiveDate(head.join('\n'));
  const warnings = effectiveDate === null ? [{ line: null, code: 'no-effective-date', message: 'the document states no effective date in its head' }] : [];
  return policyDocument({ family: 'jar', format, effectiveDate, title, introduction: null, rules, warnings }, bodyLines, []);
}
