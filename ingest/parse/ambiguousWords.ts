import { CODE_PAGES, charOf, isPlausibleTypography, LETTER, type CodePage } from '../../src/core/codePages.js';
import type { AmbiguousWord } from '../../src/core/types.js';

/**
 * Words of `text` holding stray bytes (at `positions`, in order; `strayAt(i)`: the byte the
 * character at index i was read from, for characters read from a single byte) whose reading in `page` is not a letter
 * or typography in its place ("Dandƒn", "Jun£n"), with the word read in every other code page.
 * Line numbers count "\n", "\r\n" and a bare "\r" as one line break each.
 */
export function findAmbiguousWords(text: string, positions: readonly number[], strayAt: (i: number) => number | undefined, page: CodePage): AmbiguousWord[] {
  const out: AmbiguousWord[] = [];
  // strays come in text order: lines are counted once, up to each word
  let counted = 0;
  let line = 1;
  const seenStart = new Set<number>();
  const isWordChar = (i: number): boolean => i >= 0 && i < text.length && (strayAt(i) !== undefined || LETTER.test(text[i]!));
  for (const i of positions) {
    const c = charOf(page, strayAt(i)!);
    if (isPlausibleTypography(c, text, i)) continue;
    let a = i;
    let b = i + 1;
    while (a > 0 && isWordChar(a - 1)) a--;
    while (b < text.length && isWordChar(b)) b++;
    // a lone stray byte between non-letters ("100 × 2") is not part of a word
    if (b - a === 1 || seenStart.has(a)) continue;
    seenStart.add(a);
    const read = text.slice(a, b);
    const alternatives: AmbiguousWord['alternatives'] = [];
    for (const other of CODE_PAGES) {
      if (other === page) continue;
      let word = '';
      for (let k = a; k < b; k++) {
        const x = strayAt(k);
        word += x === undefined ? text[k] : charOf(other, x);
      }
      if (word !== read && !alternatives.some((x) => x.word === word)) alternatives.push({ codePage: other, word });
    }
    line += lineBreaks(text, counted, a);
    counted = a;
    out.push({ line, read, alternatives });
  }
  return out;
}

function lineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}
