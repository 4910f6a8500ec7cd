import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { projectRoot } from '../../src/core/projectFiles.js';
import type { PdfItem, PdfPage } from '../parse/pdfText.js';

// What the cached pages depend on besides the file's bytes: the PDFium build and the way readPdf
// groups its characters into runs (a change there is a new reader version: older entries go unused).
const READER = 'readPdf-3';

let libraryVersion: string | null = null;
function pdfiumVersion(): string {
  if (libraryVersion === null) {
    const entry = createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm');
    libraryVersion = (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
  }
  return libraryVersion;
}

/**
 * The folder of the PDF text cache from the environment: $CRKB_PDF_CACHE, `off` for none, by default
 * data/cache/pdf-text under the project.
 */
export function pdfCacheDirFromEnv(): string | null {
  const v = process.env.CRKB_PDF_CACHE;
  if (v === 'off' || v === '0') return null;
  return v && v !== '' ? v : join(projectRoot(), 'data', 'cache', 'pdf-text');
}

function fileOf(dir: string, sha256: string): string {
  return join(dir, `${sha256}.pdfium-${pdfiumVersion()}.${READER}.${FORMAT}`);
}

/** Whether a run cached the text runs of the PDF with this sha256. */
export function hasCachedPdfPages(dir: string, sha256: string): boolean {
  return existsSync(fileOf(dir, sha256));
}

/** The text runs readPdf gave for the PDF with this sha256, when a run cached them; null otherwise (or when unreadable). */
export function cachedPdfPages(dir: string, sha256: string): PdfPage[] | null {
  try {
    return decodePages(readFileSync(fileOf(dir, sha256)));
  } catch {
    // absent, or damaged: read the PDF again (and write it anew)
    return null;
  }
}

/** Keeps a PDF's text runs for later runs; a cache that cannot be written is only a slower next run. */
export function cachePdfPages(dir: string, sha256: string, pages: PdfPage[]): void {
  const file = fileOf(dir, sha256);
  // written aside, then renamed: a parallel reader sees the whole file or none
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, encodePages(pages));
    renameSync(tmp, file);
    // this PDF's entries of an older form or reader are never read again (another thread's temporary file is left alone)
    const current = basename(file);
    for (const name of readdirSync(dir)) {
      if (name.startsWith(`${sha256}.`) && name !== current && !name.includes('.tmp-')) rmSync(join(dir, name), { force: true });
    }
  } catch {
    rmSync(tmp, { force: true });
  }
}

// The entry's form, in its name and its first bytes: a change of form is a new name, so an entry of an
// older form (the gzipped JSON of 'json.gz') is never read, only left behind.
// A warm ingest reads every entry on the parse worker, the thread it waits on: for the tournament documents'
// 113 PDFs, gunzip and JSON.parse of 43 MB took 0.6 s, some 4% of that thread. This form is read in 0.06 s
// (one string decode, typed-array views) and keeps every number as readPdf gave it (JSON wrote -0 as 0);
// it takes 30 MB on disk (the gzipped JSON 9 MB).
const FORMAT = 'runs-1';
const MAGIC = Buffer.from('crkbpdf1', 'latin1');
const HEADER = 32;
const LATIN1 = 0;
const UTF16 = 1;

/**
 * An entry: MAGIC; page, run and font counts, the strings' encoding and byte length, the fonts' byte
 * length (uint32 each); float64s: each page's width and height, each run's x, y, width and size; uint32s:
 * each page's run count, each run's font (index) and string length; the runs' strings one after another
 * (latin1 when every character fits, else UTF-16 code units, so any string comes back as it was); the
 * font names (JSON).
 */
function encodePages(pages: PdfPage[]): Buffer {
  let runs = 0;
  for (const p of pages) runs += p.items.length;
  const fontIndex = new Map<string, number>();
  const floats = new Float64Array(2 * pages.length + 4 * runs);
  const ints = new Uint32Array(pages.length + 2 * runs);
  const strings: string[] = [];
  let f = 0;
  let n = pages.length;
  pages.forEach((p, i) => {
    floats[f++] = p.width;
    floats[f++] = p.height;
    ints[i] = p.items.length;
    for (const r of p.items) {
      floats[f++] = r.x;
      floats[f++] = r.y;
      floats[f++] = r.width;
      floats[f++] = r.size;
      let font = fontIndex.get(r.font);
      if (font === undefined) fontIndex.set(r.font, (font = fontIndex.size));
      ints[n++] = font;
      ints[n++] = r.str.length;
      strings.push(r.str);
    }
  });
  const joined = strings.join('');
  // eslint-disable-next-line no-control-regex -- every character up to U+00FF
  const encoding = /^[\u0000-\u00ff]*$/.test(joined) ? LATIN1 : UTF16;
  const text = Buffer.from(joined, encoding === LATIN1 ? 'latin1' : 'utf16le');
  const fonts = Buffer.from(JSON.stringify([...fontIndex.keys()]), 'utf8');
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header);
  [pages.length, runs, fontIndex.size, encoding, text.length, fonts.length].forEach((v, i) => header.writeUInt32LE(v, 8 + 4 * i));
  return Buffer.concat([header, Buffer.from(floats.buffer), Buffer.from(ints.buffer), text, fonts]);
}

/** An entry read back (see encodePages); throws on one that is not whole. */
function decodePages(buf: Buffer): PdfPage[] {
  if (buf.length < HEADER || !buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not an entry of this form');
  const [pageCount, runs, fontCount, encoding, textBytes, fontBytes] = [0, 1, 2, 3, 4, 5].map((i) => buf.readUInt32LE(8 + 4 * i)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const floatCount = 2 * pageCount + 4 * runs;
  const intCount = pageCount + 2 * runs;
  const textAt = HEADER + 8 * floatCount + 4 * intCount;
  if (buf.length !== textAt + textBytes + fontBytes) throw new Error('a damaged entry');
  // typed arrays need aligned offsets: a buffer from a pool may not start at one
  const own = buf.byteOffset % 8 === 0 ? buf : Buffer.from(buf);
  const floats = new Float64Array(own.buffer, own.byteOffset + HEADER, floatCount);
  const ints = new Uint32Array(own.buffer, own.byteOffset + HEADER + 8 * floatCount, intCount);
  const text = own.toString(encoding === LATIN1 ? 'latin1' : 'utf16le', textAt, textAt + textBytes);
  const fonts = JSON.parse(own.toString('utf8', textAt + textBytes)) as string[];
  if (fonts.length !== fontCount) throw new Error('a damaged entry');
  const pages: PdfPage[] = new Array<PdfPage>(pageCount);
  let f = 0;
  let n = pageCount;
  let at = 0;
  for (let i = 0; i < pageCount; i++) {
    const width = floats[f++]!;
    const height = floats[f++]!;
    const items = new Array<PdfItem>(ints[i]!);
    for (let k = 0; k < items.length; k++) {
      const font = fonts[ints[n++]!];
      const end = at + ints[n++]!;
      if (font === undefined || end > text.length) throw new Error('a damaged entry');
      items[k] = { str: text.slice(at, end), x: floats[f++]!, y: floats[f++]!, width: floats[f++]!, size: floats[f++]!, font };
      at = end;
    }
    pages[i] = { width, height, items };
  }
  if (f !== floatCount || n !== intCount || at !== text.length) throw new Error('a damaged entry');
  return pages;
}
