import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { IngestError } from '../parse/IngestError.js';
import type { PdfItem, PdfPage } from '../parse/pdfText.js';

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/** Whether an input is a PDF, from its bytes (a PDF's header may follow a little junk) or its name. */
export function isPdf(location: string, bytes: Uint8Array): boolean {
  if (/\.pdf(?:[?#].*)?$/i.test(location)) return true;
  const head = Buffer.from(bytes.subarray(0, 1024));
  return head.indexOf(Buffer.from(PDF)) !== -1;
}

// The raw exports of PDFium's WASM build that readPdf calls (straight, without cwrap's conversions).
interface PdfiumExports {
  malloc(size: number): number;
  free(ptr: number): void;
  FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  FPDF_GetLastError(): number;
  FPDF_CloseDocument(doc: number): void;
  FPDF_GetPageCount(doc: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDFPage_GetCropBox(page: number, left: number, bottom: number, right: number, top: number): number;
  FPDFPage_GetMediaBox(page: number, left: number, bottom: number, right: number, top: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(text: number): void;
  FPDFText_CountChars(text: number): number;
  FPDFText_GetUnicode(text: number, index: number): number;
  FPDFText_GetTextObject(text: number, index: number): number;
  FPDFText_GetFontSize(text: number, index: number): number;
  FPDFText_GetMatrix(text: number, index: number, matrix: number): number;
  FPDFText_GetCharOrigin(text: number, index: number, x: number, y: number): number;
  FPDFText_GetLooseCharBox(text: number, index: number, rect: number): number;
  FPDFTextObj_GetFont(textObject: number): number;
  FPDFFont_GetBaseFontName(font: number, buffer: number, length: number): number;
}

interface Pdfium {
  ex: PdfiumExports;
  memory: () => ArrayBuffer;
}

let loaded: Promise<Pdfium> | null = null;

/**
 * PDFium, compiled to WASM by EmbedPDF: loaded once a thread, when the thread first reads a PDF. The
 * module is compiled here and instantiated through Emscripten's instantiateWasm hook: given as
 * `wasmBinary`, the file's 4.4 MB stayed referenced by the module for the thread's life, beside the
 * compiled module's own copy of the bytes.
 */
function pdfium(): Promise<Pdfium> {
  loaded ??= (async () => {
    const { init } = await import('@embedpdf/pdfium');
    const compiled = await WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm')));
    // a failed instantiation reaches init's caller through this promise (Emscripten would wait for it forever)
    let failed: (e: unknown) => void = () => {};
    const failure = new Promise<never>((_, reject) => (failed = reject));
    const m = (await Promise.race([
      init({
        instantiateWasm: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) => {
          WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance), failed);
          return {};
        },
      }),
      failure,
    ])) as unknown as {
      PDFiumExt_Init(): void;
      pdfium: { wasmExports: PdfiumExports; HEAPU8: Uint8Array };
    };
    m.PDFiumExt_Init();
    return { ex: m.pdfium.wasmExports, memory: () => m.pdfium.HEAPU8.buffer as ArrayBuffer };
  })();
  return loaded;
}

// FPDF_GetLastError's codes
const ERR_PASSWORD = 4;
const ERR_SECURITY = 5;

/**
 * Reads the positioned text runs of every page of a PDF through PDFium (the library loading stays
 * here, at the edge): PDFium gives characters, grouped here into runs of one font and size on one
 * baseline without a gap; the pure layer (pdfText) turns the runs into lines and paragraphs. Throws
 * IngestError naming `location` for a damaged, encrypted or mislabelled PDF.
 */
export async function readPdf(location: string, bytes: Uint8Array): Promise<PdfPage[]> {
  if (!isPdf('', bytes)) throw new IngestError(location, 'not a PDF: it has no %PDF- header');
  const { ex, memory } = await pdfium();
  const data = ex.malloc(bytes.length);
  if (data === 0) throw new IngestError(location, 'corrupt PDF: too large to read');
  new Uint8Array(memory()).set(bytes, data);
  const doc = ex.FPDF_LoadMemDocument(data, bytes.length, 0);
  try {
    if (doc === 0) {
      const code = ex.FPDF_GetLastError();
      if (code === ERR_PASSWORD) throw new IngestError(location, 'password-protected PDF: cannot be read');
      if (code === ERR_SECURITY) throw new IngestError(location, 'encrypted PDF with an unsupported security handler: cannot be read');
      throw new IngestError(location, `corrupt PDF: PDFium cannot open it (error ${code})`);
    }
    const pages: PdfPage[] = [];
    const scratch = ex.malloc(512);
    try {
      const fonts = new Map<number, string>();
      const count = ex.FPDF_GetPageCount(doc);
      for (let n = 0; n < count; n++) {
        const page = ex.FPDF_LoadPage(doc, n);
        if (page === 0) throw new IngestError(location, `corrupt PDF: page ${n + 1} cannot be read`);
        try {
          pages.push(readPage(ex, memory, page, scratch, fonts));
        } finally {
          ex.FPDF_ClosePage(page);
        }
      }
    } finally {
      ex.free(scratch);
    }
    return pages;
  } finally {
    if (doc !== 0) ex.FPDF_CloseDocument(doc);
    ex.free(data);
  }
}

/**
 * A font's name, known by its handle. A document may hold one font in several font objects (pdf.js
 * gave them one name): a run goes on across them, as it did.
 */
function fontName(ex: PdfiumExports, memory: () => ArrayBuffer, handle: number, fonts: Map<number, string>, scratch: number): string {
  let name = fonts.get(handle);
  if (name === undefined) {
    const length = ex.FPDFFont_GetBaseFontName(handle, scratch + 64, 448);
    name = length > 1 && length <= 448 ? Buffer.from(memory(), scratch + 64, length - 1).toString('utf8') : `font ${fonts.size + 1}`;
    fonts.set(handle, name);
  }
  return name;
}

/** Whether a character is whitespace as String.prototype.trim takes it (0x02, PDFium's hyphen, is not). */
function isBlank(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isHighSurrogate(unit: number | undefined): boolean {
  return unit !== undefined && unit >= 0xd800 && unit <= 0xdbff;
}

/** A string of UTF-16 code units, made a slice at a time (a spread of a whole long run could pass the engine's argument limit). */
function fromUnits(units: number[]): string {
  if (units.length <= 4096) return String.fromCharCode(...units);
  let s = '';
  for (let i = 0; i < units.length; i += 4096) s += String.fromCharCode(...units.slice(i, i + 4096));
  return s;
}

/** A run being built (its characters apart), with its writing direction. */
interface Run extends Omit<PdfItem, 'str'> {
  /** Unit vector of the writing direction (rotated text runs along it). */
  dx: number;
  dy: number;
}

/**
 * One page's text runs. PDFium's characters come in content order; a run ends at a change of text
 * object font or size, of baseline, or at a gap. PDFium's generated characters (a line break it
 * infers, a space it infers from a gap) are not in the file: a line break ends the run, a space
 * inferred between two runs on one line becomes the second run's leading space.
 */
function readPage(ex: PdfiumExports, memory: () => ArrayBuffer, page: number, scratch: number, fonts: Map<number, string>): PdfPage {
  // the crop box (the media box without one), as pdf.js's page view: coordinates are from its lower left
  const f32 = (): Float32Array => new Float32Array(memory(), scratch, 16);
  if (!ex.FPDFPage_GetCropBox(page, scratch, scratch + 4, scratch + 8, scratch + 12))
    ex.FPDFPage_GetMediaBox(page, scratch, scratch + 4, scratch + 8, scratch + 12);
  const [l, b, r, t] = f32();
  const x0 = Math.min(l!, r!);
  const y0 = Math.min(b!, t!);
  const width = Math.abs(r! - l!);
  const height = Math.abs(t! - b!);
  const text = ex.FPDFText_LoadPage(page);
  const items: PdfItem[] = [];
  if (text === 0) return { width, height, items };
  try {
    let run: Run | null = null;
    // whether the run so far is only whitespace (String.prototype.trim's)
    let blank = false;
    let space = false;
    let object = 0;
    let font = '';
    let size = 0;
    let dx = 1;
    let dy = 0;
    // Views over the scratch memory, made again only when the WASM memory has grown: its old buffer
    // is then detached, and a view over it has length 0.
    let origin = new Float64Array(0);
    let box = new Float32Array(0); // left, top, right, bottom
    let matrix = new Float32Array(0);
    const views = (): void => {
      origin = new Float64Array(memory(), scratch, 2);
      box = new Float32Array(memory(), scratch + 16, 4);
      matrix = new Float32Array(memory(), scratch, 2);
    };
    views();
    // the run's characters as UTF-16 code units, made a string once when it ends: a string grown a
    // character at a time left a chain of partial strings per run for the garbage collector
    const units: number[] = [];
    const add = (code: number): void => {
      if (code > 0xffff) units.push(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff));
      else units.push(code);
    };
    const flush = (): void => {
      if (run) items.push({ str: fromUnits(units), x: run.x, y: run.y, width: run.width, size: run.size, font: run.font });
      units.length = 0;
      run = null;
    };
    const count = ex.FPDFText_CountChars(text);
    for (let i = 0; i < count; i++) {
      const code = ex.FPDFText_GetUnicode(text, i);
      const obj = ex.FPDFText_GetTextObject(text, i);
      if (obj === 0) {
        // generated by PDFium: a space it inferred, or a line break
        if (code === 0x20) space = true;
        else {
          flush();
          space = false;
        }
        continue;
      }
      if (code === 0x0d || code === 0x0a || code === 0) {
        flush();
        space = false;
        continue;
      }
      // PDFium gives a character beyond U+FFFF as its two UTF-16 halves, each placed on its own: the
      // second half goes on the run of the first (a run that ended between them held half a character)
      if (code >= 0xdc00 && code <= 0xdfff && run !== null && isHighSurrogate(units[units.length - 1])) {
        units.push(code);
        continue;
      }
      if (obj !== object) {
        object = obj;
        font = fontName(ex, memory, ex.FPDFTextObj_GetFont(obj), fonts, scratch);
        ex.FPDFText_GetMatrix(text, i, scratch);
        if (box.length === 0) views();
        const a = matrix[0]!;
        const bm = matrix[1]!;
        const scale = Math.hypot(a, bm);
        size = ex.FPDFText_GetFontSize(text, i) * scale;
        dx = scale > 0 ? a / scale : 1;
        dy = scale > 0 ? bm / scale : 0;
      }
      ex.FPDFText_GetCharOrigin(text, i, scratch, scratch + 8);
      ex.FPDFText_GetLooseCharBox(text, i, scratch + 16);
      if (box.length === 0) views();
      const x = origin[0]! - x0;
      const y = origin[1]! - y0;
      // the character's advance along its writing direction
      const advance = Math.abs(dx) >= Math.abs(dy) ? (box[2]! - box[0]!) / Math.abs(dx) : (box[1]! - box[3]!) / Math.abs(dy);
      // PDFium marks a hyphen that ends a line 0x02
      const ch = code === 0x02 ? 0x2d : code;
      const chBlank = isBlank(code);
      const cur: Run | null = run;
      if (cur !== null) {
        // distance from where the run ends to this character, along the run and across it
        const along: number = (x - cur.x) * cur.dx + (y - cur.y) * cur.dy - cur.width;
        const across: number = -(x - cur.x) * cur.dy + (y - cur.y) * cur.dx;
        // (a run goes on across a change of size in one font on one baseline, as pdf.js's did: a
        // larger capital or word inside a line keeps the line's size)
        const same = cur.font === font && cur.dx === dx && cur.dy === dy && Math.abs(across) <= 0.05 * Math.min(size, cur.size);
        if (same && along >= -0.3 * size && along <= (space ? 3 : 0.1) * size) {
          // a run of spaces so far takes the size of its first word
          if (blank) cur.size = size;
          if (space) units.push(0x20);
          add(ch);
          blank &&= chBlank;
          cur.width = Math.max(cur.width, (x - cur.x) * dx + (y - cur.y) * dy + advance);
          space = false;
          continue;
        }
        flush();
        // a space PDFium inferred between two runs of one line stays (pdf.js kept one there too)
        space &&= Math.abs(across) <= 0.3 * size && along >= 0;
      }
      if (space) units.push(0x20);
      add(ch);
      run = { x, y, width: advance, size, font, dx, dy };
      blank = chBlank;
      space = false;
    }
    flush();
  } finally {
    ex.FPDFText_ClosePage(text);
  }
  return { width, height, items };
}
