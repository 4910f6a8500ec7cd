import type { WordParagraph } from './parseWordDocument.js';

// Only the tags that make text or structure (runs, properties and the rest are skipped by the scan):
// a text run with its text, a paragraph's start or end, its style, tabs, breaks, hyphens, symbols, and
// the fallback copy of alternate content. Deleted text and field codes are other tags, never matched.
const TOKEN =
  /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<(\/?)w:(p|pStyle|tab|br|cr|noBreakHyphen|sym)(?=[\s>/])([^>]*?)(\/?)>|<mc:Fallback\b[^>]*?(\/?)>/g;
const VAL = /\bw:val="([^"]*)"/;
const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (_m, dec: string | undefined, hex: string | undefined, name: string | undefined) =>
    name ? NAMED[name]! : String.fromCodePoint(dec ? Number(dec) : parseInt(hex!, 16)),
  );
}

/** Style names by style id, from word/styles.xml ("CR1001a" → "CR 100.1a"). */
export function docxStyleNames(stylesXml: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of stylesXml.matchAll(/<w:style\b[^>]*\bw:styleId="([^"]*)"[^>]*>([\s\S]*?)<\/w:style>/g)) {
    const name = /<w:name\b[^>]*\bw:val="([^"]*)"/.exec(m[2]!);
    names.set(unescapeXml(m[1]!), unescapeXml(name ? name[1]! : m[1]!));
  }
  return names;
}

/**
 * The paragraphs of a .docx body (word/document.xml) in document order, each with its text and
 * paragraph style name: text runs, tabs and breaks as Word shows them; deleted text, field codes
 * and the fallback copy of alternate content are left out.
 */
export function docxParagraphs(documentXml: string, styleNames: Map<string, string> = new Map()): WordParagraph[] {
  const out: WordParagraph[] = [];
  // A paragraph can hold another (a text box inside a run): a stack, emitted as each one closes.
  const open: Array<{ text: string; style: string | null }> = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(documentXml); m !== null; m = TOKEN.exec(documentXml)) {
    const [, text, close, tag, attrs, selfClosing, fallbackClosed] = m;
    const p = open[open.length - 1];
    if (text !== undefined) {
      if (p) p.text += unescapeXml(text);
      continue;
    }
    if (tag === undefined) {
      // alternate content repeats the same text for older readers: skip the fallback copy
      if (!fallbackClosed) {
        const end = documentXml.indexOf('</mc:Fallback>', TOKEN.lastIndex);
        TOKEN.lastIndex = end < 0 ? documentXml.length : end + '</mc:Fallback>'.length;
      }
      continue;
    }
    switch (tag) {
      case 'p':
        if (close) {
          const done = open.pop();
          if (done) out.push(done);
        } else if (selfClosing) out.push({ text: '', style: null });
        else open.push({ text: '', style: null });
        break;
      case 'pStyle':
        if (p) {
          const id = unescapeXml(VAL.exec(attrs!)?.[1] ?? '');
          p.style = styleNames.get(id) ?? id;
        }
        break;
      case 'tab':
        // a tab stop definition in the paragraph properties is not text
        if (p && selfClosing && !attrs!.includes('w:pos=')) p.text += '\t';
        break;
      case 'br':
      case 'cr':
        if (p && !close && !/w:type="(?:page|column)"/.test(attrs!)) p.text += '\n';
        break;
      case 'noBreakHyphen':
        if (p && !close) p.text += '-';
        break;
      case 'sym':
        if (p && !close) {
          const code = parseInt(/\bw:char="([0-9A-Fa-f]+)"/.exec(attrs!)?.[1] ?? '', 16);
          // symbol fonts map their characters into the private use area at U+F000
          if (Number.isFinite(code)) p.text += String.fromCodePoint(code >= 0xf000 ? code - 0xf000 : code);
        }
        break;
    }
  }
  return out;
}
