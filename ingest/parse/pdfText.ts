/**
 * From a PDF's positioned text runs to plain text, pure: lines in reading order, page furniture
 * (page numbers, running headers and footers) removed, wrapped lines joined into paragraphs (one
 * a line, as Word's own text export writes them), line-end hyphens resolved, ligatures and
 * symbol-font glyphs decoded.
 */

/** One text run of a page: its string, baseline origin (PDF units, origin bottom left), width and font size. */
export interface PdfItem {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
  font: string;
}

/** One page's text runs and size. */
export interface PdfPage {
  width: number;
  height: number;
  items: PdfItem[];
}

/** One visual line of a page. */
interface PdfLine {
  text: string;
  x: number;
  y: number;
  size: number;
  page: number;
  /** Fonts of the line's first and last runs. */
  firstFont: string;
  lastFont: string;
}

/** What the cleanup removed and decoded, for the report and the tests. */
export interface PdfTextStats {
  pages: number;
  /** Page numbers and repeated headers/footers removed. */
  furniture: number;
  /** Line-end hyphens kept (a compound: "DCI-sanctioned") and dropped (a split word). */
  hyphensKept: number;
  hyphensDropped: number;
  /** Ligatures and symbol-font characters decoded. */
  glyphs: number;
}

// Ligatures (U+FB00-FB06) and the symbol-font (Private Use Area) bullets Word's exports leave.
const GLYPHS = new Map<string, string>([
  ['\ufb00', 'ff'],
  ['\ufb01', 'fi'],
  ['\ufb02', 'fl'],
  ['\ufb03', 'ffi'],
  ['\ufb04', 'ffl'],
  ['\ufb05', 'st'],
  ['\ufb06', 'st'],
  ['\uf0b7', '•'],
  ['\uf0a7', '•'],
  ['\uf0f1', '•'],
  ['\uf06c', '•'],
  ['\uf0d8', '•'],
  ['\u00ad', ''],
]);
const GLYPH_RE = /[\ufb00-\ufb06\uf0b7\uf0a7\uf0f1\uf06c\uf0d8\u00ad]/g;
// a contents line: dotted leaders, then a page number
const LEADERS = /(?:\.\s?){4,}\s*\d+$/;
// the start of a numbered heading or an IPG part name: where a run-in body may follow
const RUN_IN = /^(?:\d{1,3}\.(?:\d{1,2}\.?)?\s+\S.*|definition|philosophy|penalty|additional remedy|upgrade|examples?)$/i;
// a numbered heading beginning a line in a font of its own starts a paragraph
const HEADING_START = /^(?:\d{1,3}\.(?:\d{1,2}\.?)?|appendix [A-Z])\s+[A-Z]/i;
const TERMINAL = /[.:;!?)"”’]$/;
const BULLET = /^(?:[•◦▪‣●○■□–-]|\d{1,2}[.)]|[A-Z][.)])\s/;

/** Decodes ligatures and symbol-font bullets; returns the text and how many characters changed. */
export function decodeGlyphs(text: string): { text: string; count: number } {
  let count = 0;
  const out = text.replace(GLYPH_RE, (c) => {
    count++;
    return GLYPHS.get(c) ?? c;
  });
  return { text: out, count };
}

/** Groups a page's runs into lines, top to bottom, left to right. */
function pageLines(page: PdfPage, pageNo: number): PdfLine[] {
  const items = page.items.filter((i) => i.str.trim() !== '' || i.str === ' ');
  const rows: PdfItem[][] = [];
  // Runs come top to bottom, so a row whose first run is above the run by more than any row's
  // tolerance can take no later run either: the search starts after those rows.
  const reach = items.reduce((m, i) => Math.max(m, 0.3 * i.size), 1.5);
  let first = 0;
  for (const it of [...items].sort((a, b) => b.y - a.y || a.x - b.x)) {
    while (first < rows.length && rows[first]![0]!.y - it.y > reach) first++;
    let row: PdfItem[] | undefined;
    for (let r = first; r < rows.length && row === undefined; r++) {
      const head = rows[r]![0]!;
      if (Math.abs(head.y - it.y) <= Math.max(1.5, 0.3 * Math.min(head.size || it.size, it.size || head.size))) row = rows[r];
    }
    if (row) row.push(it);
    else rows.push([it]);
  }
  const lines: PdfLine[] = [];
  for (const row of rows) {
    row.sort((a, b) => a.x - b.x);
    let text = '';
    let end = -Infinity;
    let size = 0;
    let font = '';
    let firstFont = '';
    for (const it of row) {
      const gap = it.x - end;
      const s = it.size || 10;
      // A run-in heading ("112. Match Time Limits The required …") changes font where its body
      // starts: a tab there, as at a tab stop, ends the heading.
      const runIn = font !== '' && it.font !== font && it.str.trim() !== '' && RUN_IN.test(text.trim()) && !/\t/.test(text);
      // a wide gap inside a line is a tab stop (a penalty at the right margin, a page number after leaders)
      if (runIn) text = text.trimEnd() + '\t';
      else if (text !== '' && !/\s$/.test(text) && !/^\s/.test(it.str) && gap > 0.15 * s) text += gap > 3 * s ? '\t' : ' ';
      if (it.str.trim() !== '') {
        font = it.font;
        firstFont ||= it.font;
      }
      text += runIn ? it.str.trimStart() : it.str;
      end = Math.max(end, it.x + it.width);
      if (it.str.trim() !== '') size = Math.max(size, it.size);
    }
    const trimmed = text.replace(/[ \u00a0]+/g, ' ').trim();
    if (trimmed !== '') lines.push({ text: trimmed, x: row[0]!.x, y: row[0]!.y, size, page: pageNo, firstFont, lastFont: font });
  }
  return lines;
}

/** The key under which a running header or footer repeats: its place and its text without digits. */
function furnitureKey(l: PdfLine): string {
  return `${Math.round(l.y / 4)}|${l.text.replace(/\d+/g, '#')}`;
}

/**
 * Turns a PDF's pages into text: one paragraph a line, a paragraph continuing across a page
 * break joined, page numbers and lines repeated at the same place on most pages dropped.
 */
export function pdfText(pages: PdfPage[]): { text: string; stats: PdfTextStats } {
  const stats: PdfTextStats = { pages: pages.length, furniture: 0, hyphensKept: 0, hyphensDropped: 0, glyphs: 0 };
  const perPage = pages.map((p, i) => pageLines(p, i));
  // running headers/footers: the same text (digits aside) at the same height in the top or bottom
  // tenth of at least half the pages (and three)
  const margin = (l: PdfLine, p: PdfPage): boolean => l.y > 0.9 * p.height || l.y < 0.1 * p.height;
  const seen = new Map<string, number>();
  perPage.forEach((lines, i) => {
    const keys = new Set(lines.filter((l) => margin(l, pages[i]!)).map(furnitureKey));
    for (const k of keys) seen.set(k, (seen.get(k) ?? 0) + 1);
  });
  const repeated = (k: string): boolean => (seen.get(k) ?? 0) >= Math.max(3, pages.length / 2);
  const body: PdfLine[] = [];
  perPage.forEach((lines, i) => {
    const page = pages[i]!;
    for (const l of lines) {
      const pageNumber = /^(?:(?:page\s+)?\d{1,3}(?:\s+of\s+\d{1,3})?|[ivxlc]{1,6}|-\s*\d{1,3}\s*-)$/i.test(l.text) && margin(l, page);
      if (pageNumber || (margin(l, page) && repeated(furnitureKey(l)))) stats.furniture++;
      else body.push(l);
    }
  });
  // paragraphs: a gap wider than the usual line step, a change of size or a bullet starts one
  const paragraphs: string[][] = [];
  let current: string[] = [];
  let prev: PdfLine | null = null;
  for (const l of body) {
    let join = false;
    if (prev !== null) {
      const step = prev.y - l.y;
      const normal = 1.35 * Math.max(prev.size, l.size);
      if (prev.page === l.page) {
        join =
          step > 0 &&
          step <= normal &&
          Math.abs(prev.size - l.size) < 0.6 &&
          !BULLET.test(l.text) &&
          !/\t/.test(prev.text) &&
          !LEADERS.test(prev.text) &&
          !(RUN_IN.test(prev.text) && prev.lastFont !== l.firstFont) &&
          !(HEADING_START.test(l.text) && prev.lastFont !== l.firstFont);
      } else {
        // a paragraph broken by the page: it did not end, and it goes on in lower case
        join = !TERMINAL.test(prev.text) && /^[a-z(]/.test(l.text) && Math.abs(prev.size - l.size) < 0.6;
      }
    }
    if (!join && current.length > 0) {
      paragraphs.push(current);
      current = [];
    }
    current.push(l.text);
    prev = l;
  }
  if (current.length > 0) paragraphs.push(current);
  // words the document spells with a hyphen inside a line, and words it spells whole
  const words = new Set<string>();
  for (const p of paragraphs) for (const line of p) for (const w of line.toLowerCase().match(/[a-z]+(?:-[a-z]+)*/g) ?? []) words.add(w);
  const out: string[] = [];
  for (const p of paragraphs) {
    let text = p[0]!;
    for (let i = 1; i < p.length; i++) {
      const next = p[i]!;
      // (tested only on a text ending in a hyphen: the end-anchored regex scans the whole paragraph so far)
      const m = text.endsWith('-') ? /([A-Za-z]+)-$/.exec(text) : null;
      const n = /^([A-Za-z]+)/.exec(next);
      if (m && n && !text.endsWith('--')) {
        const whole = (m[1]! + n[1]!).toLowerCase();
        const compound = `${m[1]}-${n[1]}`.toLowerCase();
        // Word's exports break lines at real hyphens only: a hyphen goes only when the document
        // spells the word whole elsewhere and never with the hyphen.
        if (words.has(whole) && !words.has(compound)) {
          text = text.slice(0, -1) + next;
          stats.hyphensDropped++;
        } else {
          text += next;
          stats.hyphensKept++;
        }
      } else text += (/\s/.test(text.slice(-1)) ? '' : ' ') + next;
    }
    const decoded = decodeGlyphs(text);
    stats.glyphs += decoded.count;
    out.push(decoded.text.replace(/\s*\t\s*/g, '\t'));
  }
  return { text: out.join('\n') + '\n', stats };
}
