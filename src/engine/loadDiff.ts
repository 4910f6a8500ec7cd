import type { Reference } from '../core/references.js';
import type { DiffVersion } from '../db/Snapshot.js';
import { alignEditions, type AlignRule } from './align.js';
import { diffPaired, lineageResolver, markLinks, pairLineages, partLineages } from './diffEditions.js';
import type { ChangeKind, DiffRule, EditionDiff, GlossaryEntry } from './diffEditions.js';
import type { DiffText, TitleOf } from './compareRule.js';

/** What a diff reads of the stored editions (the Snapshot). */
export interface DiffSource {
  ruleIds(editionId: number): { lineages: ArrayLike<number>; versions: ArrayLike<number>; numbers: string[] };
  versions(ids: Iterable<number>): Map<number, DiffVersion>;
  refsOfTexts(ids: Iterable<number>): Map<number, Reference[]>;
  glossaryIds(editionId: number): Array<[term: string, textId: number]>;
  /** Texts (examples, definitions) with their stored references and normalized-text hashes. */
  diffTexts(ids: Iterable<number>): Map<number, Required<DiffText>>;
  /** Splits and merges recorded on the chain after `from` up to `to` (a forward diff's span), by lineage, oldest first. */
  linksBetween(fromId: number, toId: number): Array<{ kind: 'split' | 'merge'; lineage: number; prevLineage: number }>;
  /** An edition's rules as the aligner reads them (no examples), in document order. */
  alignRules(editionId: number): AlignRule[];
  /** An edition's parts: [number, title] in document order. */
  partTitles(editionId: number): Array<[number: string, title: string]>;
}

/**
 * Loads both editions and diffs them (the timed part of bench/diff). Rules are paired on their
 * lineage and version ids first; only the rules of changed pairs, added and removed rules are read
 * with their texts, and only the references, examples and definitions the diff can read.
 * `rulesOnly` (what --json and --renumbering print) skips examples and the glossary: both come back empty.
 */
export function loadDiff(
  reader: DiffSource,
  from: { id: number; effectiveDate: string },
  to: { id: number; effectiveDate: string },
  opts: { section?: string; kinds?: ChangeKind[]; segments?: boolean; rulesOnly?: boolean } = {},
): EditionDiff {
  const { rulesOnly = false, ...diffOpts } = opts;
  const ids = (e: ReturnType<DiffSource['ruleIds']>) => ({ ...e, lineages: Array.from(e.lineages) });
  const a = ids(reader.ruleIds(from.id));
  const b = ids(reader.ruleIds(to.id));
  // An edition outside the lineage chain (an unofficial fragment) has no lineage to pair on: its
  // rules are aligned by text with the other edition's and take their lineages.
  const unaligned = (e: typeof a): boolean => e.lineages.length > 0 && e.lineages.every((l) => l < 0);
  if (from.id !== to.id && (unaligned(a) || unaligned(b))) {
    const al = alignEditions(reader.alignRules(from.id), reader.alignRules(to.id));
    if (unaligned(b)) b.lineages = b.lineages.map((l, i) => (al.afterToBefore[i]! >= 0 ? a.lineages[al.afterToBefore[i]!]! : l));
    else a.lineages = a.lineages.map((l, j) => (al.beforeToAfter[j]! >= 0 ? b.lineages[al.beforeToAfter[j]!]! : l));
  }
  const pairing = pairLineages(a.lineages, b.lineages);

  // Versions the diff reads: both sides of changed pairs, added and removed rules.
  const versionIds = new Set<number>();
  const pairedFrom = new Uint8Array(a.versions.length);
  for (let i = 0; i < pairing.length; i++) {
    const j = pairing[i]!;
    if (j < 0) versionIds.add(b.versions[i]!);
    else {
      pairedFrom[j] = 1;
      if (a.versions[j] !== b.versions[i]) versionIds.add(a.versions[j]!).add(b.versions[i]!);
    }
  }
  for (let j = 0; j < pairedFrom.length; j++) if (!pairedFrom[j]) versionIds.add(a.versions[j]!);
  const versions = reader.versions(versionIds);

  // References of texts that changed within a pair; example texts of pairs whose examples changed.
  const refIds = new Set<number>();
  const exampleLists = new Map<string, number[]>();
  for (let i = 0; i < pairing.length; i++) {
    const j = pairing[i]!;
    if (j < 0 || a.versions[j] === b.versions[i]) continue;
    const o = versions.get(a.versions[j]!)!;
    const r = versions.get(b.versions[i]!)!;
    if (o.textId !== r.textId) refIds.add(o.textId).add(r.textId);
    if (!rulesOnly && o.exampleIds !== r.exampleIds) {
      for (const ids of [o.exampleIds, r.exampleIds]) exampleLists.set(ids, JSON.parse(ids) as number[]);
    }
  }
  const refs = reader.refsOfTexts(refIds);
  const ga = rulesOnly ? [] : reader.glossaryIds(from.id);
  const gb = rulesOnly ? [] : reader.glossaryIds(to.id);
  const textIds = glossaryTextsNeeded(ga, gb);
  for (const ids of exampleLists.values()) for (const id of ids) textIds.add(id);
  const texts = textIds.size > 0 ? reader.diffTexts(textIds) : new Map<number, Required<DiffText>>();

  // parts (read when a reference names no rule: few do) are the same part when their titles are
  let partRows: [Array<[string, string]>, Array<[string, string]>] | null = null;
  let partMaps: [Map<string, number>, Map<string, number>] | null = null;
  const partsRead = (): NonNullable<typeof partRows> => (partRows ??= [reader.partTitles(from.id), reader.partTitles(to.id)]);
  const partOf = (side: 0 | 1) => (t: string): number | null =>
    // parts are numbered 1-9; any other unresolved target is dangling
    t.length === 1 ? ((partMaps ??= partLineages(...partsRead()))[side].get(t) ?? null) : null;
  // a target's title (its text, a part's title), read when a changed reference may repair a stale citation
  const titleOf = (e: typeof a, side: 0 | 1): TitleOf => {
    let index: Map<string, number> | null = null;
    return (t) => {
      if (t.length === 1) return partsRead()[side].find(([n]) => n === t)?.[1] ?? null;
      index ??= new Map(e.numbers.map((n, k) => [n, k]));
      const k = index.get(t);
      if (k === undefined) return null;
      const v = e.versions[k]!;
      if (!versions.has(v)) for (const [id, x] of reader.versions([v])) versions.set(id, x);
      return versions.get(v)?.text ?? null;
    };
  };
  const rule = (e: typeof a, k: number): DiffRule => {
    const v = versions.get(e.versions[k]!)!;
    const ids = exampleLists.get(v.exampleIds);
    return {
      number: e.numbers[k]!,
      text: v.text,
      // examples unread (rulesOnly, or the same on both sides) are [] on both sides
      examples: ids ? ids.map((id) => texts.get(id) ?? { text: '' }) : [],
      lineage: e.lineages[k]!,
      refs: refIds.has(v.textId) ? (refs.get(v.textId) ?? []) : undefined,
      normHash: v.normHash,
    };
  };
  const glossary = (g: Array<[string, number]>): GlossaryEntry[] => g.map(([term, id]) => ({ term, ...(texts.get(id) ?? { text: '' }) }));
  const diff = diffPaired(
    {
      from: from.effectiveDate,
      to: to.effectiveDate,
      pairing,
      fromLength: a.versions.length,
      unchanged: (j, i) => a.versions[j] === b.versions[i],
      fromRule: (j) => rule(a, j),
      toRule: (i) => rule(b, i),
      resolveFrom: lineageResolver(a.numbers, a.lineages, partOf(0)),
      resolveTo: lineageResolver(b.numbers, b.lineages, partOf(1)),
      targetTitles: { before: titleOf(a, 0), after: titleOf(b, 1) },
      titles: (wanted) => {
        // as diffEditions reads them: `from` then `to` in document order, the last one wins
        const w = new Set(wanted);
        const rules: Array<[number: string, version: number]> = [];
        for (const e of [a, b]) {
          for (let k = 0; k < e.numbers.length; k++) if (e.numbers[k]!.length === 3 && w.has(e.numbers[k]!)) rules.push([e.numbers[k]!, e.versions[k]!]);
        }
        const missing = rules.map(([, v]) => v).filter((v) => !versions.has(v));
        if (missing.length > 0) for (const [id, v] of reader.versions(missing)) versions.set(id, v);
        return new Map(rules.map(([n, v]) => [n, versions.get(v)!.text]));
      },
      glossary: { from: glossary(ga), to: glossary(gb) },
    },
    diffOpts,
  );
  // removed rules merged into others, added ones split off others, along a forward diff's span
  if (from.effectiveDate < to.effectiveDate && diff.changes.some((c) => c.before === null || c.after === null)) {
    markLinks(diff.changes, reader.linksBetween(from.id, to.id), a, b);
  }
  return diff;
}

// Definition text ids diffGlossary may read: those of terms added, removed or matched with another text.
function glossaryTextsNeeded(from: Array<[string, number]>, to: Array<[string, number]>): Set<number> {
  const key = (t: string): string => t.trim().toLowerCase();
  const before = new Map(from.map((g) => [key(g[0]), g[1]]));
  const seen = new Set<string>();
  const out = new Set<number>();
  for (const [term, id] of to) {
    const k = key(term);
    seen.add(k);
    const old = before.get(k);
    if (old === undefined) out.add(id);
    else if (old !== id) out.add(id).add(old);
  }
  for (const [term, id] of from) if (!seen.has(key(term))) out.add(id);
  return out;
}
