import { load, type CheerioAPI } from 'cheerio';

/** Loads an HTML page with cheerio, keeping source line numbers for warnings. */
export function loadHtml(html: string): CheerioAPI {
  return load(html, { sourceCodeLocationInfo: true });
}
