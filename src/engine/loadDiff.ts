import { alignEditions, type AlignRule } from './align.js';
import { diffPaired, lastPositions, lineageResolver, markLinks, pairLineages, partLineages } from './diffEditions.js';
import type { ChangeKind, DiffRule, EditionDiff } from './diffEditions.js';
import type { DiffText, TitleOf } from './compareRule.js';

/** What a diff reads of the stored editions (the Snapshot). */
export interface DiffSource {
  ruleIds(editionId: number): { lineages: ArrayLike<number>; versions: ArrayLike<number>; numbers: string[] };
  /** A stored rule version: its text and example texts (`examplesKey`: equal keys, equal examples). */
  version(id: number): { textId: number; exampleIds: readonly number[]; examplesKey: string };
  /** A stored text (rule, example, definition) with its references and normalized-text hash. */
  diffText(id: number): Required<DiffText>;
  /** Reads texts diffText will be asked for, at once (optional: a source that reads them one by one otherwise). */
  prefetchTexts?(ids: readonly number[]): void;
  glossaryIds(editionId: number): Array<[term: string, textId: number]>;
  /** Splits and merges recorded on the chain after `from` up to `to` (a forward diff's span), by lineage, oldest first. */
  linksBetween(fromId: number, toId: number): Array<{ kind: 'split' | 'merge'; lineage: number; prevLineage: number }>;
  /** An edition's rules as the aligner reads them (no examples), in document order. */
  alignRules(editionId: number): AlignRule[];
  /** An edition's parts: [number, title] in document order. */
  partTitles(editionId: number): Array<[number: string, title: string]>;
}

const NO_EXAMPLES: DiffText[] = [];

/** An edition's rule ids as a diff reads them, with the last position of each number. */
type EditionIds = ReturnType<DiffSource['ruleIds']> & { positionOf: ReturnType<typeof lastPositions> };

/**
 * The rule ids of two editions to pair on their lineages. An edition outside the lineage chain (an
 * unofficial fragment) has no lineage to pair on: its rules are aligned by text with the other
 * edition's and take their lineages.
 */
function lineagesOf(reader: DiffSource, fromId: number, toId: number): [EditionIds, EditionIds] {
  const ids = (e: ReturnType<DiffSource['ruleIds']>): EditionIds => ({ ...e, positionOf: lastPositions(e.numbers) });
  const a = ids(reader.ruleIds(fromId));
  const b = ids(reader.ruleIds(toId));
  const unaligned = (e: EditionIds): boolean => {
    for (let k = 0; k < e.lineages.length; k++) if (e.lineages[k]! >= 0) return false;
    return e.lineages.length > 0;
  };
  if (fromId !== toId && (unaligned(a) || unaligned(b))) {
    const al = alignEditions(reader.alignRules(fromId), reader.alignRules(toId));
    const take = (e: EditionIds, other: EditionIds, map: Int32Array): number[] =>
      Array.from(e.lineages, (l, i) => (map[i]! >= 0 ? other.lineages[map[i]!]! : l));
    if (unaligned(b)) b.lineages = take(b, a, al.afterToBefore);
    else a.lineages = take(a, b, al.beforeToAfter);
  }
  return [a, b];
}

/** Text ids of the rules a diff reads: both sides of changed pairs, the added and the removed rules. */
function changedTexts(reader: DiffSource, pairing: Int32Array, from: ArrayLike<number>, to: ArrayLike<number>): number[] {
  const out: number[] = [];
  const paired = new Uint8Array(from.length);
  for (let i = 0; i < pairing.length; i++) {
    const j = pairing[i]!;
    if (j >= 0) paired[j] = 1;
    if (j >= 0 && from[j] === to[i]) continue;
    out.push(reader.version(to[i]!).textId);
    if (j >= 0) out.push(reader.version(from[j]!).textId);
  }
  for (let j = 0; j < from.length; j++) if (paired[j] === 0) out.push(reader.version(from[j]!).textId);
  return out;
}

/** Example texts of the pairs whose examples changed, by examples key; the others' examples stay unread. */
function changedExamples(reader: DiffSource, pairing: Int32Array, from: ArrayLike<number>, to: ArrayLike<number>): Map<string, DiffText[]> {
  const out = new Map<string, DiffText[]>();
  for (let i = 0; i < pairing.length; i++) {
    const j = pairing[i]!;
    if (j < 0 || from[j] === to[i]) continue;
    const o = reader.version(from[j]!);
    const r = reader.version(to[i]!);
    if (o.examplesKey === r.examplesKey) continue;
    for (const v of [o, r])
      if (!out.has(v.examplesKey))
        out.set(
          v.examplesKey,
          v.exampleIds.map((id) => reader.diffText(id)),
        );
  }
  return out;
}

/**
 * Loads both editions and diffs them (the timed part of bench/diff). Rules are paired on their
 * lineage and version ids first; only the rules of changed pairs, added and removed rules are read
 * with their texts, and only the examples and definitions the diff compares.
 * `rulesOnly` (what --json and --renumbering print) skips examples and the glossary: both come back empty.
 */
export function loadDiff(
  reader: DiffSource,
  from: { id: number; effectiveDate: string },
  to: { id: number; effectiveDate: string },
  opts: { section?: string; kinds?: ChangeKind[]; segments?: boolean; rulesOnly?: boolean } = {},
): EditionDiff {
  const { rulesOnly = false, ...diffOpts } = opts;
  const [a, b] = lineagesOf(reader, from.id, to.id);
  const pairing = pairLineages(a.lineages, b.lineages);
  if (reader.prefetchTexts) reader.prefetchTexts(changedTexts(reader, pairing, a.versions, b.versions));
  const exampleLists = rulesOnly ? new Map<string, DiffText[]>() : changedExamples(reader, pairing, a.versions, b.versions);

  // parts (read when a reference names no rule: few do) are the same part when their titles are
  let partRows: [Array<[string, string]>, Array<[string, string]>] | null = null;
  let partMaps: [Map<string, number>, Map<string, number>] | null = null;
  const partsRead = (): NonNullable<typeof partRows> => (partRows ??= [reader.partTitles(from.id), reader.partTitles(to.id)]);
  const partOf =
    (side: 0 | 1) =>
    (t: string): number | null =>
      // parts are numbered 1-9; any other unresolved target is dangling
      t.length === 1 ? ((partMaps ??= partLineages(...partsRead()))[side].get(t) ?? null) : null;
  // a target's title (its text, a part's title), read when a changed reference may repair a stale citation
  const versionText = (v: number): string => reader.diffText(reader.version(v).textId).text;
  const titleOf =
    (e: typeof a, side: 0 | 1): TitleOf =>
    (t) => {
      if (t.length === 1) return partsRead()[side].find(([n]) => n === t)?.[1] ?? null;
      const k = e.positionOf(t);
      return k === undefined ? null : versionText(e.versions[k]!);
    };
  const rule = (e: typeof a, k: number): DiffRule => {
    const v = reader.version(e.versions[k]!);
    const t = reader.diffText(v.textId);
    return {
      number: e.numbers[k]!,
      text: t.text,
      examples: exampleLists.get(v.examplesKey) ?? NO_EXAMPLES,
      lineage: e.lineages[k]!,
      refs: t.refs,
      normHash: t.normHash,
    };
  };
  const diff = diffPaired(
    {
      from: from.effectiveDate,
      to: to.effectiveDate,
      pairing,
      fromLength: a.versions.length,
      unchanged: (j, i) => a.versions[j] === b.versions[i],
      fromRule: (j) => rule(a, j),
      toRule: (i) => rule(b, i),
      resolveFrom: lineageResolver(a.positionOf, a.lineages, partOf(0)),
      resolveTo: lineageResolver(b.positionOf, b.lineages, partOf(1)),
      targetTitles: { before: titleOf(a, 0), after: titleOf(b, 1) },
      titles: (wanted) => {
        // the section rule of `to`, else of `from` (the last rule of that number in either)
        const out = new Map<string, string>();
        for (const n of wanted) {
          const k = b.positionOf(n);
          const j = k === undefined ? a.positionOf(n) : undefined;
          const v = k !== undefined ? b.versions[k] : j !== undefined ? a.versions[j] : undefined;
          if (v !== undefined) out.set(n, versionText(v));
        }
        return out;
      },
      glossary: rulesOnly ? undefined : { from: reader.glossaryIds(from.id), to: reader.glossaryIds(to.id), text: (id) => reader.diffText(id) },
    },
    diffOpts,
  );
  // removed rules merged into others, added ones split off others, along a forward diff's span
  if (from.effectiveDate < to.effectiveDate && diff.changes.some((c) => c.before === null || c.after === null)) {
    markLinks(diff.changes, reader.linksBetween(from.id, to.id), a, b);
  }
  return diff;
}
