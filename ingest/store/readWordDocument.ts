import { extname } from 'node:path';
import { docxParagraphs } from '../parse/docxParagraphs.js';
import { findEffectiveDate } from '../parse/effectiveDate.js';
import { expectedDate } from './expectedDate.js';
import { IngestError } from '../parse/IngestError.js';
import { readZipEntry, ZipEntryTooLarge, ZipError, zipEntryNames } from './readZipEntry.js';
import { labelDateOf } from './sources.js';
import { wordBinaryProblem } from './wordBinaryProblem.js';

/** The kinds of Word document crkb reads. */
export type WordKind = 'docx' | 'doc';

// The most a part of a .docx may inflate to: every edition's word/document.xml is under 4 MB, and a
// bomb (a small file inflating to gigabytes) is refused when it passes this, not after.
const MAX_PART_BYTES = 64 * 1024 * 1024;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/**
 * Whether an input is a Word document, from its bytes and name: 'docx' for a zip holding
 * word/document.xml (or any file named .docx), 'doc' for a compound file (or any file named .doc),
 * null for everything else (text, HTML, other zips), which the text parsers take.
 */
export function wordKindOf(location: string, bytes: Uint8Array): WordKind | null {
  const ext = extname(location.replace(/[?#].*$/, '')).toLowerCase();
  if (ext === '.docx') return 'docx';
  if (ext === '.doc') return 'doc';
  if (startsWith(bytes, OLE)) return 'doc';
  if (startsWith(bytes, ZIP)) {
    try {
      if (zipEntryNames(bytes).includes('word/document.xml')) return 'docx';
    } catch {
      // not a readable zip: the text decoder names it
    }
  }
  return null;
}

/** What a file that should be a Word document holds instead, for the rejection message. */
function notWord(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  if (/^\s*(?:<!doctype html|<html|<\?xml[^>]*>\s*<html)|<(?:body|head|p|div)[\s>]/i.test(head)) return 'it holds an HTML page';
  if (/^\s*\{\\rtf/.test(head)) return 'it holds an RTF document';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return 'it holds a PDF document';
  return 'it has no Word signature';
}

/**
 * Extracts the paragraphs of a Word document (the library loading stays here, at the edge).
 * Throws IngestError naming `location` for a corrupt, truncated, encrypted or mislabelled document.
 */
export async function readWordDocument(location: string, bytes: Uint8Array, kind: WordKind): Promise<string[]> {
  if (kind === 'docx') {
    if (startsWith(bytes, OLE)) {
      // Word saves a password-protected .docx as an encrypted compound file
      const encrypted = Buffer.from(bytes).includes(Buffer.from('EncryptionInfo', 'utf16le'));
      throw new IngestError(
        location,
        encrypted ? 'password-protected .docx (encrypted): cannot be read' : 'not a .docx: it is a Word 97 compound file (rename it .doc)',
      );
    }
    if (!startsWith(bytes, ZIP)) throw new IngestError(location, `not a .docx: ${notWord(bytes)}`);
    try {
      const xml = readZipEntry(bytes, 'word/document.xml', { maxBytes: MAX_PART_BYTES });
      if (xml === null) throw new IngestError(location, 'corrupt .docx: the zip holds no word/document.xml');
      return docxParagraphs(xml);
    } catch (e) {
      if (e instanceof ZipEntryTooLarge) throw new IngestError(location, `${e.message}: not a Rules document`);
      if (e instanceof ZipError) throw new IngestError(location, `corrupt .docx: ${e.message}`);
      throw e;
    }
  }
  if (!startsWith(bytes, OLE)) throw new IngestError(location, `not a .doc: ${notWord(bytes)}`);
  const problem = wordBinaryProblem(bytes);
  if (problem !== null) throw new IngestError(location, `corrupt .doc: ${problem}`);
  const { default: WordExtractor } = await import('word-extractor');
  let body: string;
  try {
    const document = await new WordExtractor().extract(Buffer.from(bytes));
    // filterUnicode would fold curly quotes and dashes into ASCII
    body = document.getBody({ filterUnicode: false });
  } catch (e) {
    throw new IngestError(location, `corrupt .doc (truncated, encrypted or damaged): ${(e as Error).message}`);
  }
  return body.split('\n');
}

/**
 * The effective date an input is expected to have, before it is parsed (see expectedDate): for a
 * Word document, the date its first paragraphs state, read from the head of the document alone.
 */
export function expectedInputDate(location: string, bytes: Uint8Array): string | null {
  const kind = wordKindOf(location, bytes);
  if (kind === null) return expectedDate(location, bytes);
  let head = '';
  try {
    if (kind === 'docx' && startsWith(bytes, ZIP)) {
      head = (readZipEntry(bytes, 'word/document.xml', { headBytes: 32 * 1024, maxBytes: MAX_PART_BYTES })?.toString('utf8') ?? '').replace(/<[^>]*>/g, '');
    } else if (startsWith(bytes, OLE)) {
      // a .doc keeps its text as 8-bit or UTF-16 runs
      const first = Buffer.from(bytes.subarray(0, 64 * 1024));
      head = first.toString('latin1') + '\n' + first.toString('utf16le');
    }
  } catch {
    // a damaged document: its parse says so
  }
  return findEffectiveDate(head) ?? labelDateOf(location);
}
