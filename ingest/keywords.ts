import type { KeywordEntry, ParsedDocument } from '../src/core/types.js';

// A keyword rule's text is just its name: "Flying", "First Strike", "Bands with Other", "Level Up".
const RE_NAME = /^[A-Z][\w’'-]*(?:[ -][\w’'-]+){0,3}$/;

/**
 * Keyword abilities and keyword actions of an edition, found by the title of their section
 * ("Keyword Abilities": 702 since 2009, 502 before; "Keyword Actions": 701, 501 before).
 */
export function keywordsOf(doc: ParsedDocument): KeywordEntry[] {
  const kinds = new Map<string, KeywordEntry['kind']>();
  for (const r of doc.rules) {
    if (r.kind !== 'section') continue;
    if (/^keyword abilities$/i.test(r.text.trim())) kinds.set(r.number, 'ability');
    else if (/^keyword actions$/i.test(r.text.trim())) kinds.set(r.number, 'action');
  }
  const out: KeywordEntry[] = [];
  for (const r of doc.rules) {
    if (r.kind !== 'rule' || r.parent === null) continue;
    const kind = kinds.get(r.parent);
    if (!kind) continue;
    const name = r.text.trim();
    if (RE_NAME.test(name)) out.push({ kind, number: r.number, name });
  }
  return out;
}
