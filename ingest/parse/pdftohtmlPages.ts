import { decodeEntities } from './decodeEntities.js';
import type { PdfItem, PdfPage } from './pdfText.js';

const PAGE = /<div\b[^>]*\bid\s*=\s*"page\d+-div"[^>]*\bstyle\s*=\s*"[^"]*?width:\s*(\d+(?:\.\d+)?)px;\s*height:\s*(\d+(?:\.\d+)?)px/gi;
const RUN =
  /<p\b[^>]*\bstyle\s*=\s*"[^"]*?top:\s*(-?\d+(?:\.\d+)?)px;\s*left:\s*(-?\d+(?:\.\d+)?)px;[^"]*"(?:[^>]*?\bclass\s*=\s*"([^"]*)")?[^>]*>([\s\S]*?)<\/p>/gi;
const FONT_CLASS = /\.([\w-]+)\s*\{[^}]*?font-size:\s*(\d+(?:\.\d+)?)px/gi;
/**
 * The pages of an HTML rendition made by pdftohtml (one absolutely placed `<p>` a text run, one `<div id="pageN-div">`
 * a page, the font sizes in each page's style classes) as the PDF text runs pdfText reads, or null for any other
 * HTML. pdftohtml gives no run's width: a run ends where the next one on its line starts when that is near (the
 * same word in another font, as in small capitals), else after an estimate. Pure.
 */
export function pdftohtmlPages(html: string): PdfPage[] | null {
  const starts = [...html.matchAll(PAGE)];
  if (starts.length === 0) return null;
  const pages: PdfPage[] = [];
  const sizes = new Map<string, number>();
  let styleFrom = 0;
  starts.forEach((start, k) => {
    // each page may bring its own style block before it (pdftohtml -c concatenates whole documents)
    for (const m of html.slice(styleFrom, start.index).matchAll(FONT_CLASS)) sizes.set(m[1]!, Number(m[2]));
    styleFrom = start.index;
    const end = starts[k + 1]?.index ?? html.length;
    const width = Number(start[1]);
    const height = Number(start[2]);
    // a run of several lines ("<b>1.10  Players <br/></b>Players are …"): one line at a time, and in each line one
    // piece a font (bold and italic opened and closed anywhere), placed one after the other
    interface Run {
      str: string;
      top: number;
      left: number;
      size: number;
      font: string;
      /** The next piece of the same line follows at once. */
      joined: boolean;
    }
    const runs: Run[] = [];
    for (const m of html.slice(start.index, end).matchAll(RUN)) {
      const cls = (m[3] ?? '').split(/\s+/)[0] ?? '';
      // pdftohtml writes whole pixels: a size rounded down would put a paragraph's line step past pdfText's bound
      const size = (sizes.get(cls) ?? 12) + 1;
      let bold = false;
      let italic = false;
      m[4]!.split(/<br\s*\/?>/i).forEach((line, n) => {
        const top = Number(m[1]) + n * 1.2 * size;
        let left = Number(m[2]);
        const pieces: Run[] = [];
        for (const [, tag, text] of line.matchAll(/(<[^>]*>)?([^<]*)/g)) {
          if (tag !== undefined) {
            const t = /^<(\/?)([a-z]+)/i.exec(tag);
            if (t && /^b$/i.test(t[2]!)) bold = t[1] === '';
            if (t && /^i$/i.test(t[2]!)) italic = t[1] === '';
          }
          const str = decodeEntities(text ?? '');
          if (str === '') continue;
          pieces.push({ str, top, left, size, font: `${bold ? 'bold' : 'regular'}${italic ? ' italic' : ''}`, joined: true });
          left += 0.5 * size * str.length;
        }
        if (pieces.length > 0) pieces.at(-1)!.joined = false;
        runs.push(...pieces);
      });
    }
    const items: PdfItem[] = runs.map((r, i) => {
      const next = runs[i + 1];
      let w = 0.5 * r.size * r.str.length;
      const sameLine = next !== undefined && Math.abs(next.top + 0.8 * next.size - (r.top + 0.8 * r.size)) <= 0.3 * Math.min(r.size, next.size);
      // (a capital of a small-capitals title is about as wide as its size)
      if (next !== undefined && (r.joined || (sameLine && next.left > r.left && next.left <= r.left + 1.1 * r.size * r.str.length))) w = next.left - r.left;
      // the baseline, from the run's top: PDF units count up from the bottom of the page
      return { str: r.str, x: r.left, y: height - (r.top + 0.8 * r.size), width: w, size: r.size, font: r.font };
    });
    pages.push({ width, height, items });
  });
  return pages;
}
