const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;
const NAMED = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
]);

/** Decodes character references (decimal, hex) and XML's five named entities and &nbsp; in markup text; any other name is left as written. Pure. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return NAMED.get(e.toLowerCase()) ?? m;
  });
}
