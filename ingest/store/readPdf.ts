import { IngestError } from '../parse/IngestError.js';
import type { PdfPage } from '../parse/pdfText.js';

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/** Whether an input is a PDF, from its bytes (a PDF's header may follow a little junk) or its name. */
export function isPdf(location: string, bytes: Uint8Array): boolean {
  if (/\.pdf(?:[?#].*)?$/i.test(location)) return true;
  const head = Buffer.from(bytes.subarray(0, 1024));
  return head.indexOf(Buffer.from(PDF)) !== -1;
}

/**
 * Reads the positioned text runs of every page of a PDF (the library loading stays here, at the
 * edge); the pure layer (pdfText) turns them into lines and paragraphs. Throws IngestError naming
 * `location` for a damaged, encrypted or mislabelled PDF.
 */
export async function readPdf(location: string, bytes: Uint8Array): Promise<PdfPage[]> {
  if (!isPdf('', bytes)) throw new IngestError(location, 'not a PDF: it has no %PDF- header');
  const { getDocumentProxy } = await import('unpdf');
  // pdf.js takes ownership of the buffer it is given: give it a copy
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, disableFontFace: true, verbosity: 0 });
  } catch (e) {
    const message = (e as Error).message;
    if (/password/i.test(message)) throw new IngestError(location, 'password-protected PDF: cannot be read');
    throw new IngestError(location, `corrupt PDF: ${message}`);
  }
  try {
    const pages: PdfPage[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      const content = await page.getTextContent();
      const items: PdfPage['items'] = [];
      for (const it of content.items) {
        if (!('str' in it) || it.str === '') continue;
        const [a, b, , d, x, y] = it.transform as number[];
        items.push({ str: it.str, x: x! - x0, y: y! - y0, width: it.width, size: Math.hypot(a!, b!) || Math.abs(d!), font: it.fontName });
      }
      pages.push({ width: x1 - x0, height: y1 - y0, items });
      page.cleanup();
    }
    return pages;
  } catch (e) {
    throw new IngestError(location, `corrupt PDF: ${(e as Error).message}`);
  } finally {
    await pdf.destroy();
  }
}
