import { IngestError } from './IngestError.js';
import { parseJar } from './parseJar.js';
import { parsePolicy, policyFamilyOf } from './parsePolicy.js';
import { pdfText } from './pdfText.js';
import { pdftohtmlPages } from './pdftohtmlPages.js';
import { policyHtmlText } from './policyHtmlText.js';
import type { DecodedText, ParsedDocument, SourceFormat } from '../../src/core/types.js';

/**
 * Parses the decoded text of a tournament document (MTR, IPG, JAR), one paragraph a line: a PDF's
 * cleaned text, a Word document's paragraphs, a text file, an HTML rendition (its blocks). Throws
 * IngestError naming `source` when it names no tournament document or holds no unit (an MTR or IPG no numbered section).
 */
export function parsePolicyText(
  source: string,
  decoded: DecodedText,
  format: Extract<SourceFormat, 'pdf' | 'doc' | 'docx' | 'policy-text' | 'policy-html'>,
): { decoded: DecodedText; doc: ParsedDocument } {
  let text = decoded.text;
  let markup = { contentsLinks: new Set<number>(), headingLines: new Set<number>() };
  if (format === 'policy-html') {
    // pdftohtml's output is the PDF's text runs placed on the page: read as a PDF's are
    const pages = pdftohtmlPages(text);
    if (pages) text = pdfText(pages).text;
    else ({ text, ...markup } = policyHtmlText(text));
  }
  // Word's own separators inside a paragraph: vertical tab (a manual line break), form feed (a page break)
  text = text.replace(/[\v\f]/g, '\n');
  const family = policyFamilyOf(text);
  if (family === null) throw new IngestError(source, 'not a tournament document: its head names no MTR, IPG or JAR');
  // the JAR numbers nothing: its units are numbered by position (parseJar)
  const doc = family === 'jar' ? parseJar(text, format) : parsePolicy(text, family, format, markup);
  if (doc.rules.length === 0) {
    const what = family === 'jar' ? 'headings or paragraphs' : 'numbered sections';
    throw new IngestError(source, `no ${what} found in this ${family.toUpperCase()} document (${format}): not stored`);
  }
  // a rendition whose headings were read but not the text under them (its contents list taken for the
  // headings, the text lost to the last of them) is no edition: the PDFs' sections are rarely bare
  const bare = doc.rules.filter((r) => r.text === '' && r.examples.length === 0).length;
  if (bare * 2 > doc.rules.length) {
    throw new IngestError(
      source,
      `${bare} of the ${doc.rules.length} numbered sections of this ${family.toUpperCase()} document (${format}) have no text under their heading (its layout is not read): not stored`,
    );
  }
  return { decoded: { ...decoded, text }, doc };
}
