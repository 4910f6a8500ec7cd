import type { KeywordRecord } from './records.js';

/** A keyword found in an edition, before it is tied to the edition. */
export type KeywordEntry = Omit<KeywordRecord, 'editionId'>;

/**
 * Keyword abilities and keyword actions of an edition: the rules directly under the sections
 * titled "Keyword Abilities" / "Keyword Actions" (702 and 701 since 2009, 502 and 501 before)
 * whose text is just a name ("Trample", "Bands with Other"; a trailing period and underscores,
 * the italics of some editions, are dropped). Pure.
 */
export function findKeywords(
  sections: ReadonlyArray<{ number: string; title: string }>,
  childrenOf: (section: string) => ReadonlyArray<{ number: string; text: string }>,
): KeywordEntry[] {
  const out: KeywordEntry[] = [];
  for (const [kind, re] of [
    ['action', /^keyword actions?\b/i],
    ['ability', /^keyword abilit(?:y|ies)\b/i],
  ] as const) {
    const sec = sections.find((s) => re.test(s.title.replace(/_/g, '').trim()));
    if (!sec) continue;
    for (const c of childrenOf(sec.number)) {
      // rules like 702.1 "Most abilities describe ..." are not keywords
      const name = c.text.replace(/_/g, '').replace(/\.$/, '').trim();
      if (name.length === 0 || name.length > 40 || /[.:;]/.test(name)) continue;
      out.push({ kind, number: c.number, name });
    }
  }
  return out;
}
