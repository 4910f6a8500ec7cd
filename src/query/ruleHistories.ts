import type { EditionInfo, Family, RuleRecord } from '../core/records.js';
import type { Snapshot } from '../db/Snapshot.js';
import { compareTexts, textClass, type TextClass } from '../engine/compareRule.js';
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
  return r ? s.lineageAt(editionId, r.ord) : null;
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
    return { editionId: e, pos, date: s.editionById(e)!.effectiveDate, number: r.number, text: r.text, textId: r.textId, lineage, examples: examplesOf(s, r) };
  });
  if (rows.length === 0) {
    const r = s.ruleByNumber(edition.id, number)!;
    rows.push({
      editionId: edition.id,
      pos: r.ord,
      date: edition.effectiveDate,
      number: r.number,
      text: r.text,
      textId: r.textId,
      lineage,
      examples: examplesOf(s, r),
    });
  }
  const editionOf = new Map(rows.map((r) => [r.date, r.editionId]));
  const resolver = (date: string) => {
    const eid = editionOf.get(date)!;
    return (target: string): number | null => lineageAt(s, eid, target);
  };
  const h = ruleHistory(
    rows,
    chain.map((e) => e.effectiveDate),
    // the stored references and normalized-text hashes, as a diff compares them (no extraction per step)
    (prev, cur) => textClass(compareTexts(s.diffText(prev.textId), s.diffText(cur.textId), resolver(prev.date), resolver(cur.date))),
  );
  if (!h) return null;
  const placeOf = new Map(rows.map((r) => [r.date, { editionId: r.editionId, pos: r.pos }]));
  for (const [i, step] of h.steps.entries()) {
    if (i === 0) continue;
    const prev = placeOf.get(h.steps[i - 1]!.date)!;
    const cur = placeOf.get(step.date)!;
    // (most editions leave a subtree alone: told without reading either)
    if (s.sameSubtree(prev.editionId, prev.pos, cur.editionId, cur.pos)) continue;
    const sub = subruleChanges(s, prev, cur);
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

/**
 * What changed below a rule between two of its appearances, its subrules matched by lineage; null
 * when nothing did. Read from the two subtrees' versions and lineages (single rows, not whole
 * editions): a subrule of the same version (number, text and examples) in both is skipped without
 * being read (an edition that left the whole subtree alone is told apart before: Snapshot.sameSubtree).
 */
function subruleChanges(s: Snapshot, prev: Place, cur: Place): SubruleChanges | null {
  // index 0 is the rule itself, its subrules from 1
  const was = s.subtree(prev.editionId, prev.pos);
  const is = s.subtree(cur.editionId, cur.pos);
  // by lineage; a rule never aligned (negative lineage) by its number and place
  const keyed = (ids: { lineages: number[]; numbers: string[] }): Map<number | string, number> => {
    const m = new Map<number | string, number>();
    for (let k = 1; k < ids.lineages.length; k++) {
      const l = ids.lineages[k]!;
      m.set(l >= 0 ? l : `${ids.numbers[k]!}#${k - 1}`, k);
    }
    return m;
  };
  const before = keyed(was);
  const after = keyed(is);
  // elsewhere in the other edition: a subrule moved out of (or into) the rule
  const placeIn = (editionId: number, lineage: number): string | undefined => (lineage < 0 ? undefined : s.numberOfLineage(editionId, lineage));
  const out: SubruleChanges = { added: [], removed: [], changed: [], renumbered: [] };
  const prevOwn = was.numbers[0]!;
  const curOwn = is.numbers[0]!;
  for (const [key, ak] of after) {
    const number = is.numbers[ak]!;
    const bk = before.get(key);
    if (bk === undefined) {
      const from = placeIn(prev.editionId, is.lineages[ak]!);
      out.added.push(from === undefined ? { number } : { number, from });
      continue;
    }
    if (was.versions[bk] === is.versions[ak]) continue;
    const b = s.ruleAt(prev.editionId, prev.pos + bk)!;
    const a = s.ruleAt(cur.editionId, cur.pos + ak)!;
    if (a.number.slice(curOwn.length) !== b.number.slice(prevOwn.length)) out.renumbered.push({ from: b.number, to: a.number });
    const examplesChanged = a.exampleIds.join() !== b.exampleIds.join();
    if (a.textId === b.textId && !examplesChanged) continue;
    const textChange = a.textId === b.textId ? 'none' : subruleTextChange(s, b.textId, a.textId, prev.editionId, cur.editionId);
    if (textChange !== 'none' || examplesChanged) out.changed.push({ number: a.number, textChange, examplesChanged });
  }
  for (const [key, bk] of before) {
    if (after.has(key)) continue;
    const to = placeIn(cur.editionId, was.lineages[bk]!);
    const number = was.numbers[bk]!;
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
  for (const l of s.linkPlaces()) {
    if (l.lineage !== lineage && l.prevLineage !== lineage) continue;
    out.push({
      kind: l.kind,
      date: s.editionById(l.editionId)!.effectiveDate,
      number: l.number,
      lineage: l.lineage,
      prevDate: s.editionById(l.prevEditionId)!.effectiveDate,
      prevNumber: l.prevNumber,
      prevLineage: l.prevLineage,
    });
  }
  return out.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
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
