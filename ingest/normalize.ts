/**
 * Folds typography for matching: curly quotes, dashes, ™/(TM)/®, underscore
 * italics, accents, lost-character damage ("?" for a dash, dropped
 * apostrophes), case and whitespace. Two texts that differ only in those
 * normalize to the same string.
 */
export function normalizeText(text: string): string {
  return text
    .replace(/\((?:TM|tm|R|r|C|c)\)|[™®©]/g, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[Ææ]/g, 'ae')
    .replace(/[‘’´`']/g, '')
    .replace(/[“”„″"]/g, '"')
    .replace(/[‐‑‒–—―−]|--+/g, '-')
    .replace(/(\s)\?(\s)/g, '$1-$2')
    .replace(/(\w)\?(\w)/g, '$1-$2')
    .replace(/(^|[\s("])_+|_+(?=$|[\s.,;:!?)"'])/g, '$1')
    .replace(/\s*-\s*/g, ' - ')
    .replace(/…/g, '...')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
