import type { WordParagraph } from './parseWordDocument.js';

// Every tag and every run of text between tags.
const TOKEN = /<(\/?)([A-Za-z][\w.-]*:[\w.-]+|[A-Za-z][\w.-]*)([^>]*?)(\/?)>|([^<]+)/g;
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
  let inText = false;
  let skip = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(documentXml); m !== null; m = TOKEN.exec(documentXml)) {
    const [, close, tag, attrs, selfClosing, chars] = m;
    if (chars !== undefined) {
      if (inText && skip === 0 && open.length > 0) open[open.length - 1]!.text += unescapeXml(chars);
      continue;
    }
    // Alternate content repeats the same text for older readers; deleted text and field codes are not shown.
    if (tag === 'mc:Fallback' || tag === 'w:delText' || tag === 'w:instrText') {
      if (!selfClosing) skip += close ? -1 : 1;
      continue;
    }
    if (skip > 0) continue;
    const p = open[open.length - 1];
    switch (tag) {
      case 'w:p':
        if (close) {
          const done = open.pop();
          if (done) out.push(done);
        } else if (selfClosing) out.push({ text: '', style: null });
        else open.push({ text: '', style: null });
        break;
      case 'w:t':
        inText = !close && !selfClosing;
        break;
      case 'w:pStyle':
        if (p) {
          const id = unescapeXml(VAL.exec(attrs!)?.[1] ?? '');
          p.style = styleNames.get(id) ?? id;
        }
        break;
      case 'w:tab':
        // a tab stop definition in the paragraph properties is not text
        if (p && selfClosing && !attrs!.includes('w:pos=')) p.text += '\t';
        break;
      case 'w:br':
      case 'w:cr':
        if (p && !/w:type="(?:page|column)"/.test(attrs!)) p.text += '\n';
        break;
      case 'w:noBreakHyphen':
        if (p) p.text += '-';
        break;
      case 'w:sym':
        if (p) {
          const code = parseInt(/\bw:char="([0-9A-Fa-f]+)"/.exec(attrs!)?.[1] ?? '', 16);
          // symbol fonts map their characters into the private use area at U+F000
          if (Number.isFinite(code)) p.text += String.fromCodePoint(code >= 0xf000 ? code - 0xf000 : code);
        }
        break;
    }
  }
  return out;
}
