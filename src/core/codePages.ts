/** Single-byte code pages that English text files have been saved in, and what their high bytes mean. */
export type CodePage = 'windows-1252' | 'mac-roman' | 'cp437' | 'cp850';

// Characters of bytes 0x80–0xFF, 16 per line. Bytes Windows-1252 leaves undefined map to their C1 control.
const HIGH: Record<CodePage, string> = {
  'windows-1252':
    '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
    '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178' +
    '\u00a0\u00a1\u00a2\u00a3\u00a4\u00a5\u00a6\u00a7\u00a8\u00a9\u00aa\u00ab\u00ac\u00ad\u00ae\u00af' +
    '\u00b0\u00b1\u00b2\u00b3\u00b4\u00b5\u00b6\u00b7\u00b8\u00b9\u00ba\u00bb\u00bc\u00bd\u00be\u00bf' +
    '\u00c0\u00c1\u00c2\u00c3\u00c4\u00c5\u00c6\u00c7\u00c8\u00c9\u00ca\u00cb\u00cc\u00cd\u00ce\u00cf' +
    '\u00d0\u00d1\u00d2\u00d3\u00d4\u00d5\u00d6\u00d7\u00d8\u00d9\u00da\u00db\u00dc\u00dd\u00de\u00df' +
    '\u00e0\u00e1\u00e2\u00e3\u00e4\u00e5\u00e6\u00e7\u00e8\u00e9\u00ea\u00eb\u00ec\u00ed\u00ee\u00ef' +
    '\u00f0\u00f1\u00f2\u00f3\u00f4\u00f5\u00f6\u00f7\u00f8\u00f9\u00fa\u00fb\u00fc\u00fd\u00fe\u00ff',
  'mac-roman':
    '\u00c4\u00c5\u00c7\u00c9\u00d1\u00d6\u00dc\u00e1\u00e0\u00e2\u00e4\u00e3\u00e5\u00e7\u00e9\u00e8' +
    '\u00ea\u00eb\u00ed\u00ec\u00ee\u00ef\u00f1\u00f3\u00f2\u00f4\u00f6\u00f5\u00fa\u00f9\u00fb\u00fc' +
    '\u2020\u00b0\u00a2\u00a3\u00a7\u2022\u00b6\u00df\u00ae\u00a9\u2122\u00b4\u00a8\u2260\u00c6\u00d8' +
    '\u221e\u00b1\u2264\u2265\u00a5\u00b5\u2202\u2211\u220f\u03c0\u222b\u00aa\u00ba\u03a9\u00e6\u00f8' +
    '\u00bf\u00a1\u00ac\u221a\u0192\u2248\u2206\u00ab\u00bb\u2026\u00a0\u00c0\u00c3\u00d5\u0152\u0153' +
    '\u2013\u2014\u201c\u201d\u2018\u2019\u00f7\u25ca\u00ff\u0178\u2044\u20ac\u2039\u203a\ufb01\ufb02' +
    '\u2021\u00b7\u201a\u201e\u2030\u00c2\u00ca\u00c1\u00cb\u00c8\u00cd\u00ce\u00cf\u00cc\u00d3\u00d4' +
    '\uf8ff\u00d2\u00da\u00db\u00d9\u0131\u02c6\u02dc\u00af\u02d8\u02d9\u02da\u00b8\u02dd\u02db\u02c7',
  cp437:
    '\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5' +
    '\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00a2\u00a3\u00a5\u20a7\u0192' +
    '\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u2310\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb' +
    '\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556\u2555\u2563\u2551\u2557\u255d\u255c\u255b\u2510' +
    '\u2514\u2534\u252c\u251c\u2500\u253c\u255e\u255f\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u2567' +
    '\u2568\u2564\u2565\u2559\u2558\u2552\u2553\u256b\u256a\u2518\u250c\u2588\u2584\u258c\u2590\u2580' +
    '\u03b1\u00df\u0393\u03c0\u03a3\u03c3\u00b5\u03c4\u03a6\u0398\u03a9\u03b4\u221e\u03c6\u03b5\u2229' +
    '\u2261\u00b1\u2265\u2264\u2320\u2321\u00f7\u2248\u00b0\u2219\u00b7\u221a\u207f\u00b2\u25a0\u00a0',
  cp850:
    '\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5' +
    '\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00f8\u00a3\u00d8\u00d7\u0192' +
    '\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u00ae\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb' +
    '\u2591\u2592\u2593\u2502\u2524\u00c1\u00c2\u00c0\u00a9\u2563\u2551\u2557\u255d\u00a2\u00a5\u2510' +
    '\u2514\u2534\u252c\u251c\u2500\u253c\u00e3\u00c3\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u00a4' +
    '\u00f0\u00d0\u00ca\u00cb\u00c8\u0131\u00cd\u00ce\u00cf\u2518\u250c\u2588\u2584\u00a6\u00cc\u2580' +
    '\u00d3\u00df\u00d4\u00d2\u00f5\u00d5\u00b5\u00fe\u00de\u00da\u00db\u00d9\u00fd\u00dd\u00af\u00b4' +
    '\u00ad\u00b1\u2017\u00be\u00b6\u00a7\u00f7\u00b8\u00b0\u00a8\u00b7\u00b9\u00b3\u00b2\u25a0\u00a0',
};

/** The code pages a stray byte is read in when looking for the one its writer meant. */
export const CODE_PAGES = Object.keys(HIGH) as CodePage[];

// What English typography looks like in each code page: quotes, dashes, ellipsis, marks, bullet.
const TYPOGRAPHIC = new Set('‘’“”–—…™®©•');

/** The character a byte stands for in a code page. */
export function charOf(page: CodePage, byte: number): string {
  return byte < 0x80 ? String.fromCharCode(byte) : HIGH[page][byte - 0x80]!;
}

/** Decodes single-byte text through a code page's table (a code unit per byte). */
export function decodeCodePage(buf: Uint8Array, page: CodePage): string {
  const table = HIGH[page];
  const units = new Uint16Array(buf.length);
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    units[i] = b < 0x80 ? b : table.charCodeAt(b - 0x80);
  }
  return new TextDecoder('utf-16le').decode(units);
}

/**
 * The code page a single-byte English text was written in, from how often each high byte occurs
 * (`counts[b - 0x80]`): the one whose reading of them is typography (Windows-1252 0x93 and Mac Roman
 * 0xD2 are both a “), Windows-1252 on a tie.
 */
export function chooseCodePage(counts: Uint32Array): CodePage {
  const score = (page: CodePage): number => {
    let s = 0;
    for (let b = 0; b < 128; b++) if (counts[b]! > 0 && TYPOGRAPHIC.has(HIGH[page][b]!)) s += counts[b]!;
    return s;
  };
  return score('mac-roman') > score('windows-1252') ? 'mac-roman' : 'windows-1252';
}

/**
 * True when the character a stray byte reads as at `text[i]` is an accented letter, or typography
 * in its place: not a letter of some other code page ("ƒ", "£", "‰", a dash inside a word).
 */
export function isPlausibleTypography(c: string, text: string, i: number): boolean {
  // the common case first: an apostrophe after a letter ("doesn’t")
  if (c === '’' && isAsciiLetter(text.charCodeAt(i - 1))) return true;
  // an accented Latin letter ("Dandân", "Æther", "Cátinò") is what Windows-1252 text holds
  if (LATIN1_LETTER.test(c)) return true;
  if (!TYPOGRAPHIC.has(c)) return false;
  const letterBefore = LETTER.test(text[i - 1] ?? '');
  const letterAfter = LETTER.test(text[i + 1] ?? '');
  // "doesn’t", "[this object]’s", "’t Hofveld", "DCI™", "Plains—": fine; "Ma'r–f" and " ’ther" are
  // letters of another code page.
  if (c === '’') return letterBefore || !letterAfter || !/^\s?$/.test(text[i - 1] ?? '') || !LETTER.test(text[i + 2] ?? '');
  if (!(letterBefore && letterAfter) || c === '—') return true;
  // a range of subrules: "rules 100.1d–f"
  return c === '–' && /\d/.test(text[i - 2] ?? '') && !LETTER.test(text[i + 2] ?? '');
}

export const LETTER = /^\p{L}$/u;

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
const LATIN1_LETTER = /^[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff]$/;
