import { decodeBuffer, DecodeError } from './decode.js';
import { detectFormat } from './detectFormat.js';
import { IngestError } from './IngestError.js';
import { loadHtml } from './loadHtml.js';
import { parseCrText } from './parseCrText.js';
import { parseFragment } from './parseFragment.js';
import { parseHtml } from './parseHtml.js';
import { parseMarkdown } from './parseMarkdown.js';
import { parsePolicyText } from './parsePolicyText.js';
import { parseRulings } from './parseRulings.js';
import { repeatedLines } from './repeatedLines.js';
import type { DecodedText, ParsedDocument } from '../../src/core/types.js';

/** A decoded and parsed source. */
export interface ParsedSource {
  decoded: DecodedText;
  doc: ParsedDocument;
}

/**
 * Decodes bytes, detects the format from the content (and Content-Type when
 * fetched) and runs the matching parser. Throws IngestError naming `source`
 * with a one-line reason when the input cannot be used.
 */
export function parseSource(source: string, bytes: Uint8Array, contentType: string | null = null): ParsedSource {
  let decoded: DecodedText;
  try {
    decoded = decodeBuffer(bytes);
  } catch (e) {
    if (e instanceof DecodeError) throw new IngestError(source, e.message);
    throw e;
  }
  if (decoded.text.trim() === '') throw new IngestError(source, 'empty file (only white space)');
  // pdf2htmlEX places every few letters on its own ("Effectiv e Novemb er 17"): its text is not the document's words
  if (/<meta\s+name\s*=\s*["']generator["']\s+content\s*=\s*["']pdf2htmlEX/i.test(decoded.text.slice(0, 4000))) {
    throw new IngestError(source, 'an HTML page made by pdf2htmlEX (its words are split into placed pieces): not read; ingest the PDF it was made from');
  }
  const format = detectFormat(decoded.text, contentType ?? undefined);
  if (format === null) throw new IngestError(source, 'no rules found: not a Comprehensive Rules document or fragment, nor a tournament document');
  if (format === 'policy-text' || format === 'policy-html') return parsePolicyText(source, decoded, format);
  // Published texts repeat a line here and there (a contents list, "See rule …"): at most a fifth of
  // them in any edition. Nearly all is a botched copy (each line twice, the text twice over). Markup
  // lines repeat by nature, so HTML is left out.
  const repetition = format === 'html' ? null : repeatedLines(decoded.text);
  if (repetition && repetition.lines > 1 && repetition.repeated >= 0.9 * repetition.lines) {
    throw new IngestError(
      source,
      `duplicated text: ${repetition.repeated} of its ${repetition.lines} non-blank lines occur more than once (each line twice, or the whole text repeated)`,
    );
  }
  let doc: ParsedDocument;
  switch (format) {
    case 'cr-text':
      doc = parseCrText(decoded.text);
      break;
    case 'markdown':
      doc = parseMarkdown(decoded.text);
      break;
    case 'fragment':
      doc = parseFragment(decoded.text);
      break;
    case 'html':
      doc = parseHtml(loadHtml(decoded.text));
      break;
    case 'rulings-text':
    case 'rulings-html':
      doc = parseRulings(decoded.text);
      break;
  }
  checkParsed(source, doc, decoded.damage);
  return { decoded, doc };
}

/** Refuses a parsed document that holds no rules or looks truncated, naming `source`. */
export function checkParsed(source: string, doc: ParsedDocument, damage?: string): void {
  if (doc.rules.length === 0) throw new IngestError(source, 'no rules found');
  const truncated = doc.warnings.find((w) => w.code === 'truncated');
  if (truncated) {
    if (damage) throw new IngestError(source, `damaged beyond repair: ${damage}, and then ${truncated.message}`);
    throw new IngestError(source, `truncated: ${truncated.message}`);
  }
}
