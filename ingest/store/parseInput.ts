import { IngestError } from '../parse/IngestError.js';
import { parseSource, type ParsedSource } from '../parse/parseSource.js';
import { parseWordDocument } from '../parse/parseWordDocument.js';
import { parsePolicyText } from '../parse/parsePolicyText.js';
import { pdfText } from '../parse/pdfText.js';
import { isPdf, readPdf } from './readPdf.js';
import { cachePdfPages, cachedPdfPages } from './pdfTextCache.js';
import { awaitReadAhead, type PdfClaim } from './pdfReadAhead.js';
import { readWordDocument, wordKindOf } from './readWordDocument.js';

/**
 * Parses one input of any supported kind: Word documents and PDFs are read (the library loading
 * happens here) and parsed; everything else is decoded and parsed as text.
 * With `pdfCache` (a folder and the input's sha256), a PDF's text runs are read from the PDF text
 * cache when a run kept them there, and kept there otherwise (see pdfTextCache); a PDF being read
 * ahead (`readAhead`) is waited for.
 * Throws IngestError naming `source` when the input cannot be used.
 */
export async function parseInput(
  source: string,
  bytes: Uint8Array,
  contentType: string | null = null,
  pdfCache: { dir: string; sha256: string; readAhead?: PdfClaim | undefined } | null = null,
): Promise<ParsedSource> {
  if (isPdf(source, bytes) || /application\/pdf/i.test(contentType ?? '')) {
    if (pdfCache?.readAhead) awaitReadAhead(pdfCache.readAhead);
    let pages = pdfCache && cachedPdfPages(pdfCache.dir, pdfCache.sha256);
    if (!pages) {
      pages = await readPdf(source, bytes);
      if (pdfCache) cachePdfPages(pdfCache.dir, pdfCache.sha256, pages);
    }
    const { text } = pdfText(pages);
    if (text.trim() === '') throw new IngestError(source, 'a PDF with no text (scanned pages?): crkb reads the text a PDF holds, it does no OCR');
    return parsePolicyText(source, { text, encoding: 'utf-8', lineEndings: ['lf'] }, 'pdf');
  }
  const kind = wordKindOf(source, bytes);
  if (kind === null) return parseSource(source, bytes, contentType);
  return parseWordDocument(source, await readWordDocument(source, bytes, kind), kind);
}
