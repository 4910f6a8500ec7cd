import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { projectRoot } from '../../src/core/projectFiles.js';
import type { PdfPage } from '../parse/pdfText.js';

// What the cached pages depend on besides the file's bytes: the PDFium build and the way readPdf
// groups its characters into runs (a change there is a new reader version: older entries go unused).
const READER = 'readPdf-2';

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
  return join(dir, `${sha256}.pdfium-${pdfiumVersion()}.${READER}.json.gz`);
}

/** Whether a run cached the text runs of the PDF with this sha256. */
export function hasCachedPdfPages(dir: string, sha256: string): boolean {
  return existsSync(fileOf(dir, sha256));
}

/** The text runs readPdf gave for the PDF with this sha256, when a run cached them; null otherwise (or when unreadable). */
export function cachedPdfPages(dir: string, sha256: string): PdfPage[] | null {
  try {
    return JSON.parse(gunzipSync(readFileSync(fileOf(dir, sha256))).toString('utf8')) as PdfPage[];
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
    writeFileSync(tmp, gzipSync(JSON.stringify(pages), { level: 1 }));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
