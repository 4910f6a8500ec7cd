import { buildCrDocument, type SourceLine } from './crLines.js';
import type { ParsedDocument } from '../../src/core/types.js';

const BULLET_RE = /^\s*[•·◦▪‣*-]\s+/;

/**
 * Parses a plain-text run of CR rules with no header (pasted fragments, or the text of a
 * bulleted web page with its "•" bullets): format 'fragment', never complete, no date.
 */
export function parseFragment(text: string): ParsedDocument {
  const lines: SourceLine[] = [];
  let prevBlank = true;
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') {
      prevBlank = true;
      return;
    }
    const bullet = BULLET_RE.test(raw) && !/^\s*[-*_]{3,}\s*$/.test(raw);
    lines.push({ text: bullet ? raw.replace(BULLET_RE, '') : raw, line: i + 1, block: prevBlank || bullet });
    prevBlank = false;
  });
  const doc = buildCrDocument(lines, { format: 'fragment' });
  // A fragment never states its edition: provenance matching identifies it.
  doc.effectiveDate = null;
  doc.complete = false;
  return doc;
}
