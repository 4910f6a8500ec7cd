// The source's italics: from 2008-07-15 to 2014-02-01 the text files mark titles with underscores
// (_Magic_, _Magic: The Gathering_ Tournament Rules, the _Shards of Alara_ set). An underscore run
// is italic when it opens after a non-letter, closes before one, and neither end is a space.
const ITALIC_RE = /(^|[^\p{L}\p{N}_])_([^\s_](?:[^_\n]*[^\s_])?)_(?![\p{L}\p{N}_])/gu;

/** A text split into runs, the source's underscore italics (_Magic_) marked italic and without their underscores. */
export function italicRuns(text: string): Array<{ text: string; italic: boolean }> {
  if (!text.includes('_')) return [{ text, italic: false }];
  const out: Array<{ text: string; italic: boolean }> = [];
  let at = 0;
  for (const m of text.matchAll(ITALIC_RE)) {
    const start = m.index + m[1]!.length;
    if (start > at) out.push({ text: text.slice(at, start), italic: false });
    out.push({ text: m[2]!, italic: true });
    at = start + m[2]!.length + 2;
  }
  if (at < text.length) out.push({ text: text.slice(at), italic: false });
  return out;
}

/** A text without the underscores of its italics (_Magic_ → Magic), for plain-text and chat answers. */
export function stripItalics(text: string): string {
  return text.includes('_') ? text.replace(ITALIC_RE, '$1$2') : text;
}
