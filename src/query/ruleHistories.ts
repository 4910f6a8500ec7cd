import type { EditionInfo, Family, RuleRecord } from '../core/records.js';
import type { Snapshot } from '../db/Snapshot.js';
import { compareRuleText, compareTexts, textClass, type TextClass } from '../engine/compareRule.js';
import { glossaryHistory, type GlossaryHistory } from '../engine/glossaryHistory.js';
import { ruleHistory, type RuleHistory, type SubruleChanges } from '../engine/history.js';

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
  const placeOf = new Map(rows.map((r) => [r.date, { editionId: r.editionId, pos: r.pos }]));
  for (const [i, step] of h.steps.entries()) {
    if (i === 0) continue;
    const sub = subruleChanges(s, placeOf.get(h.steps[i - 1]!.date)!, placeOf.get(step.date)!);
    if (!sub) continue;
    step.subrules = sub;
    if (step.change === 'unchanged') step.change = 'changed';
  }
  return { ...h, links: linksOf(s, lineage) };
}

interface Place {
  editionId: number;
  pos: number;
}

/** The positions below a rule (its subrules at every depth: the rules right after it whose number extends its own), as [first, end). */
function subtreeOf(s: Snapshot, p: Place): [number, number] {
  const numbers = s.numbers(p.editionId);
  const own = numbers[p.pos]!;
  let end = p.pos + 1;
  while (end < numbers.length && numbers[end]!.startsWith(own)) end++;
  return [p.pos + 1, end];
}

/**
 * What changed below a rule between two of its appearances, its subrules matched by lineage; null
 * when nothing did. Read from the editions' arrays of versions and lineages: a subrule of the same
 * version (number, text and examples) in both is skipped without being read, so an edition that
 * left the subtree alone costs a comparison of two short arrays.
 */
function subruleChanges(s: Snapshot, prev: Place, cur: Place): SubruleChanges | null {
  const [b0, b1] = subtreeOf(s, prev);
  const [a0, a1] = subtreeOf(s, cur);
  const was = s.ruleIds(prev.editionId);
  const is = s.ruleIds(cur.editionId);
  if (b1 - b0 === a1 - a0) {
    let same = true;
    for (let k = 0; same && k < b1 - b0; k++) same = was.versions[b0 + k] === is.versions[a0 + k] && was.lineages[b0 + k] === is.lineages[a0 + k];
    if (same) return null;
  }
  // by lineage; a rule never aligned (negative lineage) by its number and place
  const keyed = (ids: { lineages: Int32Array; numbers: string[] }, from: number, to: number): Map<number | string, number> => {
    const m = new Map<number | string, number>();
    for (let p = from; p < to; p++) {
      const l = ids.lineages[p]!;
      m.set(l >= 0 ? l : `${ids.numbers[p]!}#${p - from}`, p);
    }
    return m;
  };
  const before = keyed(was, b0, b1);
  const after = keyed(is, a0, a1);
  // elsewhere in the other edition: a subrule moved out of (or into) the rule
  const placeIn = (ids: { lineages: Int32Array; numbers: string[] }, lineage: number): string | undefined => {
    if (lineage < 0) return undefined;
    const pos = ids.lineages.indexOf(lineage);
    return pos < 0 ? undefined : ids.numbers[pos];
  };
  const out: SubruleChanges = { added: [], removed: [], changed: [], renumbered: [] };
  const prevOwn = was.numbers[prev.pos]!;
  const curOwn = is.numbers[cur.pos]!;
  for (const [k, ap] of after) {
    const number = is.numbers[ap]!;
    const bp = before.get(k);
    if (bp === undefined) {
      const from = placeIn(was, is.lineages[ap]!);
      out.added.push(from === undefined ? { number } : { number, from });
      continue;
    }
    if (was.versions[bp] === is.versions[ap]) continue;
    const b = s.ruleAt(prev.editionId, bp)!;
    const a = s.ruleAt(cur.editionId, ap)!;
    if (a.number.slice(curOwn.length) !== b.number.slice(prevOwn.length)) out.renumbered.push({ from: b.number, to: a.number });
    const examplesChanged = a.exampleIds.join() !== b.exampleIds.join();
    if (a.textId === b.textId && !examplesChanged) continue;
    const textChange = a.textId === b.textId ? 'none' : subruleTextChange(s, b.textId, a.textId, prev.editionId, cur.editionId);
    if (textChange !== 'none' || examplesChanged) out.changed.push({ number: a.number, textChange, examplesChanged });
  }
  for (const [k, bp] of before) {
    if (after.has(k)) continue;
    const to = placeIn(is, was.lineages[bp]!);
    const number = was.numbers[bp]!;
    out.removed.push(to === undefined ? { number } : { number, to });
  }
  return out.added.length + out.removed.length + out.changed.length + out.renumbered.length ? out : null;
}

/**
 * How a subrule's text changed, cheaply: texts of the same normalized hash differ in typography only
 * (without asking whether a reference of the same number now points at another rule: the rule's own
 * history says that); others get the diff's verdict on the stored texts (compareTexts).
 */
function subruleTextChange(s: Snapshot, before: number, after: number, prevEdition: number, curEdition: number): TextClass {
  const b = s.diffText(before);
  const a = s.diffText(after);
  if (b.normHash === a.normHash) return 'typography';
  return textClass(
    compareTexts(
      b,
      a,
      (t) => lineageAt(s, prevEdition, t),
      (t) => lineageAt(s, curEdition, t),
    ),
  );
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
