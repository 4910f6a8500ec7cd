// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL
const NON_ASCII = /[^\x00-\x7f]/;
const TRADEMARKS = /\((?:TM|tm|R|r|C|c)\)|[™®©]/g;
const COMBINING = /[\u0300-\u036f]/g;
const UNICODE_APOSTROPHES = /[‘’´\uFFFD]/g;
const UNICODE_QUOTES = /[“”„″]/g;
const UNICODE_DASHES = /[‐‑‒–—―−]/g;
const ASCII_APOSTROPHES = /['`]/g;
const DAMAGE_SPACED = /(\s)\?(\s)/g;
const DAMAGE_JOINED = /(\w)\?(\w)/g;
const ITALICS = /(^|[\s("])_+|_+(?=$|[\s.,;:!?)"'])/g;
const DASHES = /\s*(?:--+|-)\s*/g;
const SPACES = /\s+/g;

/**
 * Folds typography for matching: curly quotes, dashes, ™/(TM)/®, underscore
 * italics, accents, lost-character damage ("?" for a dash, dropped
 * apostrophes), case and whitespace. Two texts that differ only in those
 * normalize to the same string.
 */
export function normalizeText(text: string): string {
  // each pass only where its trigger character occurs: most texts need few of them
  let t = text.includes('(') || NON_ASCII.test(text) ? text.replace(TRADEMARKS, '') : text;
  if (NON_ASCII.test(t)) {
    t = t
      .normalize('NFKD')
      .replace(COMBINING, '')
      .replace(/[Ææ]/g, 'ae')
      .replace(UNICODE_APOSTROPHES, '')
      .replace(UNICODE_QUOTES, '"')
      .replace(UNICODE_DASHES, '-')
      .replace(/…/g, '...');
  }
  if (t.includes("'") || t.includes('`')) t = t.replace(ASCII_APOSTROPHES, '');
  if (t.includes('?')) t = t.replace(DAMAGE_SPACED, '$1-$2').replace(DAMAGE_JOINED, '$1-$2');
  if (t.includes('_')) t = t.replace(ITALICS, '$1');
  if (t.includes('-')) t = t.replace(DASHES, ' - ');
  return t.replace(SPACES, ' ').trim().toLowerCase();
}
