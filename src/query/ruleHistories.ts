import type { EditionInfo, Family, RuleRecord } from '../core/records.js';
import type { Snapshot } from '../db/Snapshot.js';
import { compareRuleText, textClass } from '../engine/compareRule.js';
import { glossaryHistory, type GlossaryHistory } from '../engine/glossaryHistory.js';
import { ruleHistory, type RuleHistory, type SubruleChanges } from '../engine/history.js';
import { descendants } from './ruleTree.js';

/** A split or merge a lineage took part in, as history shows it. */
interface LineageLink {
  kind: 'split' | 'merge';
  date: string;
  number: string;
  lineage: number;
  prevDate: string;
  prevNumber: string;
  prevLineage: number;
}

/** A rule's history across editions: the engine's steps and the splits and merges it took part in. */
export interface RuleHistoryAnswer extends RuleHistory {
  links: LineageLink[];
}

const examplesOf = (s: Snapshot, r: RuleRecord): string[] => r.exampleIds.map((id) => s.text(id));

/** The lineage id of a rule number in an edition (negative for a rule never aligned), or null. */
function lineageAt(s: Snapshot, editionId: number, number: string): number | null {
  const r = s.ruleByNumber(editionId, number);
  return r ? s.ruleIds(editionId).lineages[r.ord]! : null;
}

/** A rule's history across the official editions of its family, or null when the edition has no such rule. */
export function ruleHistoryOf(s: Snapshot, edition: EditionInfo, number: string): RuleHistoryAnswer | null {
  const lineage = lineageAt(s, edition.id, number);
  if (lineage === null) return null;
  const chain = s.editions.filter((e) => e.family === edition.family && e.official);
  const inChain = new Set(chain.map((e) => e.id));
  const places = s.lineagePlaces(lineage).filter(([e]) => inChain.has(e));
  const rows = places.map(([e, pos]) => {
    const r = s.ruleAt(e, pos)!;
    return { editionId: e, pos, date: s.editionById(e)!.effectiveDate, number: r.number, text: r.text, lineage, examples: examplesOf(s, r) };
  });
  if (rows.length === 0) {
    const r = s.ruleByNumber(edition.id, number)!;
    rows.push({ editionId: edition.id, pos: r.ord, date: edition.effectiveDate, number: r.number, text: r.text, lineage, examples: examplesOf(s, r) });
  }
  const editionOf = new Map(rows.map((r) => [r.date, r.editionId]));
  const resolver = (date: string) => {
    const eid = editionOf.get(date)!;
    return (target: string): number | null => lineageAt(s, eid, target);
  };
  const h = ruleHistory(
    rows,
    chain.map((e) => e.effectiveDate),
    (prev, cur) => textClass(compareRuleText(prev.text, cur.text, resolver(prev.date), resolver(cur.date))),
  );
  if (!h) return null;
  const placeOf = new Map(rows.map((r) => [r.date, s.ruleAt(r.editionId, r.pos)!]));
  const subtrees = new Map<number, RuleRecord[]>();
  const below = (r: RuleRecord): RuleRecord[] => {
    let d = subtrees.get(r.editionId);
    if (!d) subtrees.set(r.editionId, (d = descendants(s, r)));
    return d;
  };
  for (const [i, step] of h.steps.entries()) {
    if (i === 0) continue;
    const prev = placeOf.get(h.steps[i - 1]!.date)!;
    const cur = placeOf.get(step.date)!;
    const before = below(prev);
    const after = below(cur);
    if (before.length === 0 && after.length === 0) continue;
    const sub = subruleChanges(s, prev, before, cur, after);
    if (!sub) continue;
    step.subrules = sub;
    if (step.change === 'unchanged') step.change = 'changed';
  }
  return { ...h, links: linksOf(s, lineage) };
}

/** What changed below a rule between two of its appearances, its subrules matched by lineage; null when nothing did. */
function subruleChanges(s: Snapshot, prev: RuleRecord, before: RuleRecord[], cur: RuleRecord, after: RuleRecord[]): SubruleChanges | null {
  const key = (r: RuleRecord, i: number): string => (r.lineageId !== null && r.lineageId >= 0 ? `L${r.lineageId}` : `N${r.number}#${i}`);
  const was = new Map(before.map((r, i) => [key(r, i), r]));
  const is = new Map(after.map((r, i) => [key(r, i), r]));
  // elsewhere in the other edition: a subrule moved out of (or into) the rule
  const placeIn = (editionId: number, r: RuleRecord): string | undefined => {
    if (r.lineageId === null || r.lineageId < 0) return undefined;
    const pos = s.ruleIds(editionId).lineages.indexOf(r.lineageId);
    return pos < 0 ? undefined : s.numbers(editionId)[pos];
  };
  const out: SubruleChanges = { added: [], removed: [], changed: [], renumbered: [] };
  const resolve = (editionId: number) => (target: string) => lineageAt(s, editionId, target);
  const suffix = (r: RuleRecord, parent: RuleRecord) => r.number.slice(parent.number.length);
  for (const [k, a] of is) {
    const b = was.get(k);
    if (!b) {
      const from = placeIn(prev.editionId, a);
      out.added.push(from === undefined ? { number: a.number } : { number: a.number, from });
      continue;
    }
    if (suffix(a, cur) !== suffix(b, prev)) out.renumbered.push({ from: b.number, to: a.number });
    const examplesChanged = a.exampleIds.join() !== b.exampleIds.join();
    if (a.textId === b.textId && !examplesChanged) continue;
    const textChange = a.textId === b.textId ? 'none' : textClass(compareRuleText(b.text, a.text, resolve(prev.editionId), resolve(cur.editionId)));
    if (textChange !== 'none' || examplesChanged) out.changed.push({ number: a.number, textChange, examplesChanged });
  }
  for (const [k, b] of was) {
    if (is.has(k)) continue;
    const to = placeIn(cur.editionId, b);
    out.removed.push(to === undefined ? { number: b.number } : { number: b.number, to });
  }
  return out.added.length + out.removed.length + out.changed.length + out.renumbered.length ? out : null;
}

/** Splits and merges a lineage took part in, oldest first. */
function linksOf(s: Snapshot, lineage: number): LineageLink[] {
  const out: LineageLink[] = [];
  for (const l of s.lineageLinks()) {
    const a = s.ruleIds(l.editionId).lineages[l.pos];
    const b = s.ruleIds(l.prevEditionId).lineages[l.prevPos];
    if (a !== lineage && b !== lineage) continue;
    out.push({
      kind: l.kind,
      date: s.editionById(l.editionId)!.effectiveDate,
      number: s.numbers(l.editionId)[l.pos]!,
      lineage: a!,
      prevDate: s.editionById(l.prevEditionId)!.effectiveDate,
      prevNumber: s.numbers(l.prevEditionId)[l.prevPos]!,
      prevLineage: b!,
    });
  }
  return out.sort((x, y) => x.date.localeCompare(y.date));
}

/** A glossary term's history across the official editions (renamings followed), or null when no edition (or `at`) has it. */
export function termHistoryOf(s: Snapshot, term: string, at: EditionInfo | null, family: Family): GlossaryHistory | null {
  const chain = s.editions.filter((e) => e.family === family && e.official && s.glossary(e.id).length > 0);
  const idOf = new Map(chain.map((e) => [e.effectiveDate, e.id]));
  return glossaryHistory(
    chain.map((e) => ({ date: e.effectiveDate, entries: s.glossary(e.id).map((g) => ({ term: g.term, definition: g.definition })) })),
    term,
    (date) => (target) => lineageAt(s, idOf.get(date)!, target),
    at?.effectiveDate,
  );
}
