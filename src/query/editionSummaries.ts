import type { EditionInfo, Family } from '../core/records.js';
import type { Snapshot } from '../db/Snapshot.js';

/** An edition as `crkb editions` lists it. */
export interface EditionSummary extends EditionInfo {
  rules: number;
  glossary: number;
  files: number;
  /** The source file whose text is stored, and its sha256 (provenance). */
  primaryFile: string | null;
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
        primaryFile: src.primary?.path ?? null,
        sha256: src.primary?.sha256 ?? null,
      };
    });
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
