import { htmlText } from './detectFormat.js';

// an in-page link's text is fenced by these two characters until the lines are read
const OPEN = '\u0001';
const CLOSE = '\u0002';
// the start of a heading element's text
const HEADING = '\u0003';
// what a contents entry holds besides its link: a section number or an appendix's letter ("1.1. <a>…</a>", "Appendix A - <a>…</a>")
const ENTRY_REST = /^\s*(?:\d{1,3}(?:\.\d{1,2})*\.?|Appendix\s+[A-Z]\s*(?:—|–|-|:)?)?\s*$/i;

/**
 * The text of a tournament document's HTML rendition, one block a line, with the lines that are entries of
 * its in-page contents (a line whose text is a link to an anchor of the page, after at most a section number
 * or an appendix letter), and the lines that are the text of a heading element (h1-h6): 0-based line numbers
 * of `text`. The renditions' own artefacts are undone: a blog
 * page's title prefix ("IPG 2.1 …" → "2.1 …"), the app's date stamp on the first line, and a heading that holds only its number, its title on the next
 * line ("1" / "GENERAL PHILOSOPHY" → "1 GENERAL PHILOSOPHY", on the title's line). Pure.
 */
export function policyHtmlText(html: string): { text: string; contentsLinks: Set<number>; headingLines: Set<number> } {
  const marked = html
    // the MTG Familiar app's stamp before the markup ("2016-00-21"): when the app took the file, no text of the document
    .replace(/^\s*\d{4}-\d{1,2}-\d{1,2}[ \t]*(?=\r?\n)/, '')
    // the page's title is no text of the document (calibre's: "Unknown")
    .replace(/<title\b[^>]*>[^<]*<\/title>/gi, '')
    // the blog scrape's page titles name the document before the section's number
    .replace(/(<h1\b[^>]*class\s*=\s*["'][^"']*entry-title[^"']*["'][^>]*>)\s*(?:IPG|MTR)\s+(?=\d|Appendix\b)/gi, '$1')
    // a heading of a number alone, its title the text after it (calibre's IPG of January 2016)
    .replace(/(<h([1-6])\b[^>]*>)\s*(\d{1,2}(?:\.\d{1,2})?\.?)\s*(<\/h\2>)(\s*)([^<\s][^<\n]*)/gi, '$1$4$5$3 $6')
    .replace(/<h[1-6]\b[^>]*>/gi, `$&${HEADING}`)
    .replace(/<a\s[^>]*\bhref\s*=\s*["']#[^"']*["'][^>]*>([\s\S]*?)<\/a>/gi, `${OPEN}$1${CLOSE}`);
  const lines = htmlText(marked).split('\n');
  const contentsLinks = new Set<number>();
  const headingLines = new Set<number>();
  let inLink = false;
  lines.forEach((line, i) => {
    let rest = '';
    let linked = '';
    for (const c of line) {
      if (c === OPEN) inLink = true;
      else if (c === CLOSE) inLink = false;
      else if (c === HEADING) continue;
      else if (inLink) linked += c;
      else rest += c;
    }
    if (linked.trim() !== '' && ENTRY_REST.test(rest.replace(/\u00a0/g, ' '))) contentsLinks.add(i);
    if (line.trimStart().startsWith(HEADING)) headingLines.add(i);
    lines[i] = line.replaceAll(OPEN, '').replaceAll(CLOSE, '').replaceAll(HEADING, '');
  });
  return { text: lines.join('\n'), contentsLinks, headingLines };
}
