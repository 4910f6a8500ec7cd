import { extractReferences } from '../../src/core/references.js';
import type { EditionDiff, DiffOptions } from '../../src/engine/diffEditions.js';
import { loadDiff, type DiffSource } from '../../src/engine/loadDiff.js';
import { normHash } from '../../ingest/store/identify.js';

/** A fixture edition: rules with the lineage ids a test chooses, and a glossary. */
export interface FixtureEdition {
  date: string;
  rules: Array<{ number: string; text: string; examples: string[]; lineage: number }>;
  glossary?: Array<{ term: string; definition: string }>;
}

/**
 * Fixture editions as the differ reads stored ones (texts and versions interned as the store does),
 * so engine tests run the production diff (loadDiff) on editions they write themselves.
 */
export function memorySource(editions: FixtureEdition[]): DiffSource {
  const texts = new Map<string, number>();
  const bodies = new Map<number, string>();
  const intern = (t: string): number => {
    let id = texts.get(t);
    if (id === undefined) {
      texts.set(t, (id = texts.size + 1));
      bodies.set(id, t);
    }
    return id;
  };
  const versions = new Map<string, number>();
  const versionRows = new Map<number, { textId: number; examples: string }>();
  const rows = editions.map((e) => {
    const ids = e.rules.map((r) => {
      const textId = intern(r.text);
      const examples = JSON.stringify(r.examples.map(intern));
      const key = JSON.stringify([r.number, textId, examples]);
      let v = versions.get(key);
      if (v === undefined) {
        versions.set(key, (v = versions.size + 1));
        versionRows.set(v, { textId, examples });
      }
      return v;
    });
    return { ids, e, glossary: (e.glossary ?? []).map((g) => [g.term, intern(g.definition)] as [string, number]) };
  });
  return {
    ruleIds: (k) => ({ lineages: rows[k]!.e.rules.map((r) => r.lineage), versions: rows[k]!.ids, numbers: rows[k]!.e.rules.map((r) => r.number) }),
    version: (id) => {
      const v = versionRows.get(id)!;
      return { textId: v.textId, exampleIds: JSON.parse(v.examples) as number[], examplesKey: v.examples };
    },
    diffText: (id) => ({ text: bodies.get(id)!, refs: extractReferences(bodies.get(id)!), normHash: normHash(bodies.get(id)!) }),
    glossaryIds: (k) => rows[k]!.glossary,
    linksBetween: () => [],
    alignRules: (k) => rows[k]!.e.rules.map((r) => ({ number: r.number, parent: null, kind: 'rule', text: r.text, examples: [] })),
    partTitles: () => [],
  };
}

/** The production diff of two fixture editions. */
export function diffFixtures(from: FixtureEdition, to: FixtureEdition, opts: DiffOptions = {}): EditionDiff {
  return loadDiff(memorySource([from, to]), { id: 0, effectiveDate: from.date }, { id: 1, effectiveDate: to.date }, opts);
}
