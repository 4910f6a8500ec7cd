import { buildCrDocument, type SourceLine } from './crLines.js';
import type { ParsedDocument } from '../../src/core/types.js';

/**
 * Parses a Markdown rendering of (part of) the CR: ATX headings, a "*Chapter: …*" line,
 * rules as paragraphs separated by blank lines, examples as their own paragraphs.
 */
export function parseMarkdown(text: string): ParsedDocument {
  const lines: SourceLine[] = [];
  let prevBlank = true;
  let fence = false;
  text.split('\n').forEach((raw, i) => {
    if (/^\s*(?:```|~~~)/.test(raw)) {
      fence = !fence;
      return;
    }
    if (raw.trim() === '') {
      prevBlank = true;
      return;
    }
    let t = raw;
    let role: SourceLine['role'];
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(t);
    if (heading) {
      t = heading[1]!;
      role = 'heading';
    }
    let block = prevBlank || heading !== null;
    if (!fence) {
      t = t.replace(/^\s*(?:>\s?)+/, '');
      if (/^\s*[-*+]\s+/.test(t) && !/^\s*[-*_]{3,}\s*$/.test(t)) {
        t = t.replace(/^\s*[-*+]\s+/, '');
        block = true;
      }
      // Emphasis around a rule number or an "Example:" label: "**700.1.** …", "*Example:* …".
      t = t.replace(/^(\*\*|__|\*|_)(\d{3}(?:\.\d{1,3}[a-z]{0,2})?\.?|Example:)\1/, '$2');
      t = t.replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1');
    }
    lines.push({ text: t, line: i + 1, block, ...(role ? { role } : {}) });
    prevBlank = false;
  });
  const doc = buildCrDocument(lines, { format: 'markdown' });
  doc.complete = isWholeEdition(doc);
  return doc;
}

/** A rendering is a whole edition only when it dates itself and spans all the parts with a glossary. */
export function isWholeEdition(doc: ParsedDocument): boolean {
  if (doc.effectiveDate === null) return false;
  const sections = new Set(doc.rules.filter((r) => r.kind === 'section').map((r) => r.number[0]));
  return ['1', '2', '3', '4', '5', '6'].every((p) => sections.has(p)) && doc.rules.length > 500;
}
