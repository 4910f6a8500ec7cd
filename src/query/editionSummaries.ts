import type { EditionInfo, Family } from '../core/records.js';
import { basename } from 'node:path';
import type { PrimarySource, Snapshot } from '../db/Snapshot.js';

/** An edition as `crkb editions` lists it. */
export interface EditionSummary extends EditionInfo {
  rules: number;
  glossary: number;
  files: number;
  /**
   * Where the stored text comes from, as others can find it: its official address, else its place in a public archive
   * ("archive mtg-cr/CR-2019-01-25.txt"), else its file name (never a local path); and its sha256.
   */
  source: string | null;
  /** Whether the stored copy is an official one (see ingest/store/copyProvenance); null when the ingest did not record it. */
  officialCopy: boolean | null;
  sha256: string | null;
}

/** One edition whole: rules in document order with their examples, and the glossary. */
export interface EditionExport {
  effectiveDate: string;
  rules: Array<{ number: string; parent: string | null; text: string; examples: string[] }>;
  glossary: Array<{ term: string; definition: string }>;
}

/** Every edition of a family with its counts and source files, oldest first. */
export function editionSummaries(s: Snapshot, family: Family): EditionSummary[] {
  return s.editions
    .filter((e) => e.family === family)
    .map((e) => {
      const src = s.sourcesOf(e.id);
      return {
        ...e,
        rules: s.ruleCount(e.id),
        glossary: s.glossary(e.id).length,
        files: src.files,
        source: publicSource(src.primary),
        officialCopy: src.primary?.official ?? null,
        sha256: src.primary?.sha256 ?? null,
      };
    });
}

function publicSource(p: PrimarySource | null): string | null {
  if (p === null) return null;
  return p.url ?? (p.archive === null ? basename(p.path) : `archive ${p.archive}`);
}

/** One edition whole. */
export function exportEdition(s: Snapshot, edition: EditionInfo): EditionExport {
  const rules: EditionExport['rules'] = [];
  for (let p = 0; p < s.ruleCount(edition.id); p++) {
    const r = s.ruleAt(edition.id, p)!;
    rules.push({ number: r.number, parent: r.parent, text: r.text, examples: r.exampleIds.map((id) => s.text(id)) });
  }
  return { effectiveDate: edition.effectiveDate, rules, glossary: s.glossary(edition.id).map((g) => ({ term: g.term, definition: g.definition })) };
}
