import { Lineage } from '../db/Lineage.js';
import type { SkeletonRule } from '../db/Lineage.js';
import type { Db } from '../db/openDb.js';
import { diffEditions, pairRules } from './diffEditions.js';
import type { ChangeKind, EditionDiff } from './diffEditions.js';

/**
 * Loads both editions and diffs them (the timed part of bench/diff). Rules are paired on their
 * skeletons first; only the texts, examples, references and definitions the diff can read are loaded.
 * `rulesOnly` (what --json and --renumbering print) skips examples and the glossary: both come back empty.
 */
export function loadDiff(
  db: Db,
  from: { id: number; effectiveDate: string },
  to: { id: number; effectiveDate: string },
  opts: { section?: string; kinds?: ChangeKind[]; segments?: boolean; rulesOnly?: boolean } = {},
): EditionDiff {
  const { rulesOnly = false, ...diffOpts } = opts;
  const lineage = new Lineage(db);
  const a = lineage.diffSkeleton(from.id);
  const b = lineage.diffSkeleton(to.id);
  const pairing = pairRules(a, b);
  // A text left unloaded reads '' on both sides, so only texts that may differ need loading:
  // rules paired with another version, added and removed rules, and section titles.
  const textIds = new Set<number>();
  const refIds = new Set<number>();
  const withExamples: SkeletonRule[] = [];
  const pairedFrom = new Uint8Array(a.length);
  for (let i = 0; i < b.length; i++) {
    const r = b[i]!;
    const j = pairing[i]!;
    if (j < 0) {
      textIds.add(r.textId);
      continue;
    }
    pairedFrom[j] = 1;
    const o = a[j]!;
    if (o.version === r.version) continue;
    textIds.add(o.textId).add(r.textId);
    if (o.textId !== r.textId) refIds.add(o.textId).add(r.textId);
    if (!rulesOnly && o.exampleIds !== r.exampleIds) withExamples.push(o, r);
  }
  for (let j = 0; j < a.length; j++) if (!pairedFrom[j]) textIds.add(a[j]!.textId);
  const SECTION = /^\d{3}$/;
  for (const rules of [a, b]) for (const r of rules) if (SECTION.test(r.number)) textIds.add(r.textId);
  const exampleIds = withExamples.map((r) => JSON.parse(r.exampleIds) as number[]);
  for (const ids of exampleIds) for (const id of ids) textIds.add(id);
  const ga = rulesOnly ? [] : lineage.glossaryIds(from.id);
  const gb = rulesOnly ? [] : lineage.glossaryIds(to.id);
  for (const id of glossaryTextsNeeded(ga, gb)) textIds.add(id);

  const texts = lineage.textsByIds(textIds);
  const refs = lineage.refsOfTexts(refIds);
  for (const rules of [a, b]) {
    for (const r of rules) {
      const t = texts.get(r.textId);
      if (!t) continue;
      r.text = t[0];
      r.normHash = t[1];
      if (refIds.has(r.textId)) r.refs = refs.get(r.textId) ?? [];
    }
  }
  withExamples.forEach((r, k) => (r.examples = exampleIds[k]!.map((id) => texts.get(id)?.[0] ?? '')));
  const glossary = (g: Array<[string, number]>): Array<{ term: string; definition: string }> =>
    g.map(([term, id]) => ({ term, definition: texts.get(id)?.[0] ?? '' }));
  return diffEditions(
    { date: from.effectiveDate, rules: a, glossary: glossary(ga) },
    { date: to.effectiveDate, rules: b, glossary: glossary(gb) },
    diffOpts,
  );
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

