import { normalizeText } from '../core/normalize.js';
import { termKey } from '../core/termKey.js';
import type { ResolveLineage } from './compareRule.js';
import { compareRuleText, textClass } from './compareRule.js';
import { ruleHistory } from './history.js';
import type { RuleHistory } from './history.js';

/** One edition's glossary, as the glossary lineage reads it. */
export interface GlossaryEdition {
  date: string;
  entries: Array<{ term: string; definition: string }>;
}

/** A glossary term's history: its history steps ('renumbered' meaning renamed) and its names. */
export interface GlossaryHistory extends Omit<RuleHistory, 'numbers'> {
  /** Every name the term has had, in order of first use. */
  terms: string[];
}

/**
 * Lineage ids of glossary entries along a chain of editions (date order): an entry continues the
 * previous edition's entry of the same term (termKey), else the one unpaired
 * entry with the same definition (a renamed term). `ids[k][n]` is the id of entry n of edition k.
 */
export function glossaryLineages(editions: GlossaryEdition[]): Int32Array[] {
  let next = 1;
  const out: Int32Array[] = [];
  editions.forEach((ed, k) => {
    const ids = new Int32Array(ed.entries.length).fill(0);
    const prev = k > 0 ? editions[k - 1]! : null;
    if (prev) {
      const prevIds = out[k - 1]!;
      const byTerm = new Map<string, number>();
      prev.entries.forEach((e, n) => byTerm.set(termKey(e.term), n));
      const used = new Uint8Array(prev.entries.length);
      ed.entries.forEach((e, n) => {
        const p = byTerm.get(termKey(e.term));
        if (p !== undefined && !used[p]) {
          used[p] = 1;
          ids[n] = prevIds[p]!;
        }
      });
      // a renamed term keeps its definition: pair unique definitions among the unpaired entries
      const count = (list: Array<{ definition: string }>, free: (n: number) => boolean): Map<string, number[]> => {
        const m = new Map<string, number[]>();
        list.forEach((e, n) => {
          if (!free(n)) return;
          const d = normalizeText(e.definition);
          m.set(d, [...(m.get(d) ?? []), n]);
        });
        return m;
      };
      const before = count(prev.entries, (n) => !used[n]);
      const after = count(ed.entries, (n) => ids[n] === 0);
      for (const [d, ns] of after) {
        const ps = before.get(d);
        if (ns.length === 1 && ps?.length === 1 && d !== '') ids[ns[0]!] = prevIds[ps[0]!]!;
      }
    }
    for (let n = 0; n < ids.length; n++) if (ids[n] === 0) ids[n] = next++;
    out.push(ids);
  });
  return out;
}

/**
 * The history of the glossary term `term` as named in edition `at` (a date; default the last edition
 * holding the term): every edition it appears in, under which name, and how its definition changed.
 * `resolver(date)` resolves references in that edition (to rule lineages), so a definition whose
 * reference numbers only changed is a 'references' step. Null when no edition has the term.
 */
export function glossaryHistory(editions: GlossaryEdition[], term: string, resolver: (date: string) => ResolveLineage, at?: string): GlossaryHistory | null {
  const key = termKey(term);
  const ids = glossaryLineages(editions);
  let id = 0;
  for (let k = editions.length - 1; k >= 0 && id === 0; k--) {
    if (at !== undefined && editions[k]!.date !== at) continue;
    const n = editions[k]!.entries.findIndex((e) => termKey(e.term) === key);
    if (n >= 0) id = ids[k]![n]!;
  }
  if (id === 0) return null;
  const rows = editions.flatMap((ed, k) => {
    const n = ids[k]!.indexOf(id);
    return n < 0 ? [] : [{ date: ed.date, number: ed.entries[n]!.term, text: ed.entries[n]!.definition, lineage: id }];
  });
  const h = ruleHistory(
    rows,
    editions.map((e) => e.date),
    (prev, cur) => textClass(compareRuleText(prev.text, cur.text, resolver(prev.date), resolver(cur.date))),
  );
  if (!h) return null;
  const { numbers, ...rest } = h;
  return { ...rest, terms: numbers };
}
