import { isAscii, isUtf8 } from 'node:buffer';
import { findAmbiguousWords } from './ambiguousWords.js';
import { chooseCodePage, decodeCodePage, type CodePage } from '../../src/core/codePages.js';
import type { AmbiguousWord, DecodedText } from '../../src/core/types.js';

/** Why a byte buffer could not be decoded; the caller adds the file name. */
export class DecodeError extends Error {
  override name = 'DecodeError';
}

const MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document (only text exports are supported)'],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive or Word document (only text exports are supported)'],
  [[0x1f, 0x8b], 'a gzip archive'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'a legacy Office document (only text exports are supported)'],
];

// Bytes that Windows-1252 leaves undefined: text containing them is some other encoding.
const CP1252_UNDEFINED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

const REPLACEMENT = [0xef, 0xbf, 0xbd];

/** Drops a leading run of U+FFFD (a lost BOM) and turns each later one back into one "?" byte. */
function stripReplacements(buf: Uint8Array): Buffer {
  let start = 0;
  while (startsWith(buf.subarray(start), REPLACEMENT)) start += 3;
  const body = Buffer.from(buf.subarray(start));
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = body.indexOf(0xef); i !== -1; i = body.indexOf(0xef, i + 1)) {
    if (body[i + 1] === 0xbf && body[i + 2] === 0xbd) {
      parts.push(body.subarray(from, i), Buffer.from('?'));
      from = i + 3;
      i += 2;
    }
  }
  parts.push(body.subarray(from));
  return Buffer.concat(parts);
}

function startsWith(buf: Uint8Array, sig: number[]): boolean {
  return sig.every((b, i) => buf[i] === b);
}

/** Decodes a text file whose encoding is detected from its bytes, never from its name. */
export function decodeBuffer(buf: Uint8Array): DecodedText {
  if (buf.length === 0) throw new DecodeError('empty file');
  for (const [sig, what] of MAGIC) {
    if (startsWith(buf, sig)) throw new DecodeError(`not a text file: looks like ${what}`);
  }
  let encoding: DecodedText['encoding'];
  let raw: string;
  let damaged: string | undefined;
  let ambiguous: AmbiguousWord[] = [];
  if (startsWith(buf, [0xef, 0xbb, 0xbf])) {
    encoding = 'utf-8-bom';
    raw = strictUtf8(buf.subarray(3), 'UTF-8 (with BOM)');
  } else if (startsWith(buf, [0xff, 0xfe])) {
    if (startsWith(buf, [0xff, 0xfe, 0, 0])) throw new DecodeError('unsupported encoding: UTF-32');
    encoding = 'utf-16le';
    raw = new TextDecoder('utf-16le').decode(buf.subarray(2));
  } else if (startsWith(buf, [0xfe, 0xff])) {
    encoding = 'utf-16be';
    raw = decodeUtf16be(buf.subarray(2));
  } else if (startsWith(buf, REPLACEMENT) && sniffUtf16(stripReplacements(buf)) !== null) {
    // UTF-16 once pushed through a UTF-8 converter: every byte >= 0x80 (the BOM too) became U+FFFD.
    // Putting one "?" byte back for each keeps the 2-byte alignment; those characters are lost.
    const repaired = stripReplacements(buf);
    damaged = 'UTF-16 text damaged by a UTF-8 conversion: bytes over 0x7F were lost and read as "?"';
    if (sniffUtf16(repaired) === 'le') {
      encoding = 'utf-16le';
      raw = new TextDecoder('utf-16le').decode(repaired.subarray(0, repaired.length & ~1));
    } else {
      encoding = 'utf-16be';
      raw = decodeUtf16be(repaired);
    }
  } else {
    const bom16 = sniffUtf16(buf);
    if (bom16 === 'le') {
      encoding = 'utf-16le';
      raw = new TextDecoder('utf-16le').decode(buf);
    } else if (bom16 === 'be') {
      encoding = 'utf-16be';
      raw = decodeUtf16be(buf);
    } else {
      if (isAscii(buf)) {
        encoding = 'ascii';
        raw = asBuffer(buf).toString('latin1');
      } else {
        const utf8 = tryUtf8(buf);
        if (utf8 !== null) {
          encoding = 'utf-8';
          raw = utf8;
        } else {
          const mixed = decodeUtf8WithStrays(buf);
          const single = mixed ? null : decodeSingleByte(buf);
          ({ encoding, raw, ambiguous } = mixed ?? single!);
        }
      }
    }
  }
  if (raw.charCodeAt(0) === 0xfeff) raw = raw.slice(1);
  checkControlCharacters(raw);
  const out: DecodedText = { text: toLf(raw), encoding, lineEndings: lineEndingsOf(raw) };
  if (damaged) out.damage = damaged;
  if (ambiguous.length > 0) out.ambiguous = ambiguous;
  return out;
}

/**
 * Decodes a single-byte text in the code page its typography points to (Windows-1252 or Mac
 * Roman), refusing bytes Windows-1252 leaves undefined in a Windows text and text too full of
 * high bytes to be English; words no typography explains are reported as ambiguous.
 */
function decodeSingleByte(buf: Uint8Array): { encoding: CodePage & DecodedText['encoding']; raw: string; ambiguous: AmbiguousWord[] } {
  const counts = new Uint32Array(128);
  const positions: number[] = [];
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    if (b < 0x80) continue;
    counts[b - 0x80]!++;
    positions.push(i);
  }
  const page = chooseCodePage(counts);
  const undefinedByte = [...CP1252_UNDEFINED].some((b) => counts[b - 0x80]! > 0);
  if ((page === 'windows-1252' && undefinedByte) || (buf.length > 256 && positions.length / buf.length > 0.3)) {
    throw new DecodeError('unknown text encoding: not UTF-8, UTF-16, Windows-1252 or Mac Roman');
  }
  const raw = decodeCodePage(buf, page);
  // one character per byte: the character at a high byte's position was read from it
  return {
    encoding: page as 'windows-1252' | 'mac-roman',
    raw,
    ambiguous: findAmbiguousWords(raw, positions, (i) => (buf[i]! >= 0x80 ? buf[i] : undefined), page),
  };
}

/**
 * UTF-8 text holding a few bytes of another code page ("Dand\x83n" in an otherwise UTF-8 file):
 * valid sequences are read as UTF-8, each stray byte as Windows-1252 and reported. Null when the
 * text has no multi-byte UTF-8 sequence or more stray bytes than sequences (then it is single-byte).
 */
function decodeUtf8WithStrays(buf: Uint8Array): { encoding: 'utf-8'; raw: string; ambiguous: AmbiguousWord[] } | null {
  let from = 0;
  let sequences = 0;
  const strayBytes: Array<[number, number]> = [];
  const chunks: string[] = [];
  for (let i = 0; i < buf.length;) {
    const b = buf[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n > 0 && i + n <= buf.length && isUtf8(buf.subarray(i, i + n))) {
      sequences++;
      i += n;
      continue;
    }
    strayBytes.push([i, b]);
    // a single-byte text: its high bytes are nearly all strays (no need to read on)
    if (strayBytes.length > 64 && strayBytes.length > 4 * sequences) return null;
    i++;
  }
  if (sequences === 0 || strayBytes.length > sequences) return null;
  const strays = new Map<number, number>();
  let length = 0;
  for (const [i, b] of strayBytes) {
    const before = asBuffer(buf.subarray(from, i)).toString('utf8');
    chunks.push(before, decodeCodePage(Uint8Array.of(b), 'windows-1252'));
    length += before.length;
    strays.set(length, b);
    length++;
    from = i + 1;
  }
  chunks.push(asBuffer(buf.subarray(from)).toString('utf8'));
  const raw = chunks.join('');
  return { encoding: 'utf-8', raw, ambiguous: findAmbiguousWords(raw, [...strays.keys()], (i) => strays.get(i), 'windows-1252') };
}

function strictUtf8(buf: Uint8Array, what: string): string {
  const s = tryUtf8(buf);
  if (s === null) throw new DecodeError(`invalid ${what}: malformed byte sequence`);
  return s;
}

function tryUtf8(buf: Uint8Array): string | null {
  return isUtf8(buf) ? asBuffer(buf).toString('utf8') : null;
}

function asBuffer(buf: Uint8Array): Buffer {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
}

function decodeUtf16be(buf: Uint8Array): string {
  const swapped = Buffer.from(buf.subarray(0, buf.length - (buf.length % 2)));
  swapped.swap16();
  return new TextDecoder('utf-16le').decode(swapped);
}

/** UTF-16 without a BOM: English text has a NUL in every other byte. */
function sniffUtf16(buf: Uint8Array): 'le' | 'be' | null {
  const n = Math.min(buf.length, 4096) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (buf[i] === 0) evenNul++;
    if (buf[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.6 && evenNul < pairs * 0.05) return 'le';
  if (evenNul > pairs * 0.6 && oddNul < pairs * 0.05) return 'be';
  return null;
}

function checkControlCharacters(text: string): void {
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  if (!/[\x00-\x08\x0b\x0e-\x1f]/.test(text)) return;
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) bad++;
  }
  if (bad > 0 && bad > text.length / 1000) {
    throw new DecodeError(`binary data or unknown encoding: ${bad} control characters after decoding`);
  }
}

// Line breaks besides LF: CRLF, a bare CR, and Unicode's NEL, line and paragraph separators.
const BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;

/** The text with every kind of line break turned into "\n" (each one line). */
function toLf(raw: string): string {
  return /[\r\u0085\u2028\u2029]/.test(raw) ? raw.replace(BREAKS, '\n') : raw;
}

function lineEndingsOf(raw: string): DecodedText['lineEndings'] {
  const out: DecodedText['lineEndings'] = [];
  if (/[^\r]\n|^\n/.test(raw)) out.push('lf');
  if (raw.includes('\r\n')) out.push('crlf');
  if (/\r(?!\n)/.test(raw)) out.push('cr');
  if (raw.includes('\u0085')) out.push('nel');
  if (raw.includes('\u2028')) out.push('ls');
  if (raw.includes('\u2029')) out.push('ps');
  return out;
}
