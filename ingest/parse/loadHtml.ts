import { createRequire } from 'node:module';
import type * as Cheerio from 'cheerio';

// cheerio is loaded when the first HTML page arrives, not by every ingest (most inputs are text):
// each parse worker saves its start-up cost.
let load: typeof Cheerio.load | null = null;

/** Loads an HTML page with cheerio, keeping source line numbers for warnings. */
export function loadHtml(html: string): Cheerio.CheerioAPI {
  load ??= (createRequire(import.meta.url)('cheerio') as typeof Cheerio).load;
  return load(html, { sourceCodeLocationInfo: true });
}
