import { decodeEntities } from './decodeEntities.js';
const HIGH = /[\x80-\xff]/;

/** Whether `xml` has `name` at `at`, followed by white space, ">" or "/" (a whole tag name). */
function tagAt(xml: string, at: number, name: string): boolean {
  if (!xml.startsWith(name, at)) return false;
  const c = xml.charCodeAt(at + name.length);
  return c === 0x3e || c === 0x2f || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The tag at `at` (after "<w:") that makes text or structure, or null (runs, properties and the rest):
 * a text run, a paragraph, tabs, breaks, hyphens and symbols. Deleted text and field codes are other tags.
 */
function tagOf(xml: string, at: number): string | null {
  switch (xml.charCodeAt(at)) {
    case 0x74: // t
      return tagAt(xml, at, 't') ? 't' : tagAt(xml, at, 'tab') ? 'tab' : null;
    case 0x70: // p
      return tagAt(xml, at, 'p') ? 'p' : null;
    case 0x62: // b
      return tagAt(xml, at, 'br') ? 'br' : null;
    case 0x63: // c
      return tagAt(xml, at, 'cr') ? 'cr' : null;
    case 0x6e: // n
      return tagAt(xml, at, 'noBreakHyphen') ? 'noBreakHyphen' : null;
    case 0x73: // s
      return tagAt(xml, at, 'sym') ? 'sym' : null;
    default:
      return null;
  }
}

/**
 * The paragraphs of a .docx body (word/document.xml, as its UTF-8 bytes) in document order, each as
 * its text: text runs, tabs and breaks as Word shows them; deleted text, field codes and the fallback
 * copy of alternate content are left out.
 */
export function docxParagraphs(documentXml: Uint8Array): string[] {
  // Scanned as Latin-1 (the markup is ASCII; a one-byte string, half the size of the text decoded),
  // and only the text runs are decoded as UTF-8.
  const bytes = Buffer.from(documentXml.buffer, documentXml.byteOffset, documentXml.byteLength);
  const xml = bytes.toString('latin1');
  const out: string[] = [];
  // A paragraph can hold another (a text box inside a run): a stack, emitted as each one closes.
  const open: Array<{ text: string }> = [];
  for (let lt = xml.indexOf('<'); lt !== -1; lt = xml.indexOf('<', lt + 1)) {
    const close = xml.charCodeAt(lt + 1) === 0x2f;
    const at = lt + (close ? 2 : 1);
    if (xml.charCodeAt(at) !== 0x77 /* w */ && !close && xml.startsWith('mc:Fallback', at) && !/\w/.test(xml[at + 11] ?? '')) {
      // alternate content repeats the same text for older readers: skip the fallback copy
      const gt = xml.indexOf('>', at);
      if (gt === -1) break;
      if (xml.charCodeAt(gt - 1) !== 0x2f) {
        const end = xml.indexOf('</mc:Fallback>', gt);
        if (end === -1) break;
        lt = end + '</mc:Fallback>'.length - 1;
      } else lt = gt;
      continue;
    }
    if (xml.charCodeAt(at) !== 0x77 || xml.charCodeAt(at + 1) !== 0x3a /* w: */) continue;
    const tag = tagOf(xml, at + 2);
    if (tag === null) continue;
    const p = open[open.length - 1];
    if (tag === 't') {
      // a text run: <w:t …>text</w:t>, the text holding no markup
      const gt = xml.indexOf('>', at);
      const end = xml.indexOf('<', gt);
      if (close || gt === -1 || end === -1 || xml.charCodeAt(gt - 1) === 0x2f || !xml.startsWith('</w:t>', end)) continue;
      if (p) {
        const run = xml.slice(gt + 1, end);
        // the run's bytes decoded where they are (a character of the Latin-1 string is a byte)
        p.text += decodeEntities(HIGH.test(run) ? bytes.toString('utf8', gt + 1, end) : run);
      }
      lt = end + '</w:t>'.length - 1;
      continue;
    }
    const gt = xml.indexOf('>', at);
    if (gt === -1) break;
    const selfClosing = xml.charCodeAt(gt - 1) === 0x2f;
    const attrs = xml.slice(at + 2 + tag.length, selfClosing ? gt - 1 : gt);
    lt = gt;
    switch (tag) {
      case 'p':
        if (close) {
          const done = open.pop();
          if (done) out.push(done.text);
        } else if (selfClosing) out.push('');
        else open.push({ text: '' });
        break;
      case 'tab':
        // a tab stop definition in the paragraph properties is not text
        if (p && selfClosing && !attrs.includes('w:pos=')) p.text += '\t';
        break;
      case 'br':
      case 'cr':
        if (p && !close && !/w:type="(?:page|column)"/.test(attrs)) p.text += '\n';
        break;
      case 'noBreakHyphen':
        if (p && !close) p.text += '-';
        break;
      case 'sym':
        if (p && !close) {
          const code = parseInt(/\bw:char="([0-9A-Fa-f]+)"/.exec(attrs)?.[1] ?? '', 16);
          // symbol fonts map their characters into the private use area at U+F000
          if (Number.isFinite(code)) p.text += String.fromCodePoint(code >= 0xf000 ? code - 0xf000 : code);
        }
        break;
    }
  }
  return out;
}
