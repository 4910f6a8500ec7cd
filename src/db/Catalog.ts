import type { DocumentFamily } from '../core/types.js';
import { EditionResolver } from './EditionResolver.js';
import type { Db } from './openDb.js';

/** An edition as listed by `crkb editions`. */
export interface EditionSummary {
  id: number;
  family: DocumentFamily;
  effectiveDate: string;
  official: boolean;
  label: string;
  setCode: string | null;
  setName: string | null;
  rules: number;
  glossary: number;
  files: number;
  primaryFile: string | null;
}

/** One rule as `crkb export` prints it. */
export interface ExportRule {
  number: string;
  parent: string | null;
  text: string;
  examples: string[];
}

/** Thrown when an edition argument names no stored edition. */
export class UnknownEditionError extends Error {
  override name = 'UnknownEditionError';
}

/** Edition listing, edition resolution by date and whole-edition export. */
export class Catalog {
  private readonly s;
  private readonly resolver: EditionResolver;

  constructor(readonly db: Db) {
    this.resolver = new EditionResolver(db);
    this.s = {
      list: db.prepare(
        `SELECT e.id, e.family, e.effective_date AS effectiveDate, e.official, e.label, e.set_code AS setCode,
                e.set_name AS setName,
                (SELECT count(*) FROM edition_rules r WHERE r.edition_id = e.id) AS rules,
                (SELECT count(*) FROM edition_glossary g WHERE g.edition_id = e.id) AS glossary,
                (SELECT count(*) FROM source_files f WHERE f.edition_id = e.id) AS files,
                (SELECT path FROM source_files f WHERE f.id = e.primary_file_id) AS primaryFile
         FROM editions e WHERE e.family = @family ORDER BY e.effective_date, e.label`,
      ),
      rules: db.prepare(
        `SELECT v.number, v.parent, t.body AS text, v.examples
         FROM edition_rules er JOIN rule_versions v ON v.id = er.version_id JOIN texts t ON t.id = v.text_id
         WHERE er.edition_id = @id ORDER BY er.ord`,
      ),
      glossary: db.prepare(
        `SELECT g.term, t.body AS definition
         FROM edition_glossary eg JOIN glossary_versions g ON g.id = eg.version_id JOIN texts t ON t.id = g.text_id
         WHERE eg.edition_id = @id ORDER BY eg.ord`,
      ),
      text: db.prepare('SELECT body FROM texts WHERE id = ?').pluck(),
      hashes: db.prepare('SELECT sha256 FROM source_files').pluck(),
      official: db.prepare(
        `SELECT family, effective_date AS effectiveDate FROM editions WHERE official = 1 ORDER BY family, effective_date`,
      ),
    };
  }

  /** sha256 of every stored source file. */
  sourceHashes(): Set<string> {
    return new Set(this.s.hashes.all() as string[]);
  }

  /** Family and date of every official edition. */
  officialEditions(): Array<{ family: DocumentFamily; effectiveDate: string }> {
    return this.s.official.all() as Array<{ family: DocumentFamily; effectiveDate: string }>;
  }

  /** Every stored edition of a family, oldest first. */
  listEditions(family: DocumentFamily = 'cr'): EditionSummary[] {
    return (this.s.list.all({ family }) as Array<Omit<EditionSummary, 'official'> & { official: number }>).map((e) => ({
      ...e,
      official: e.official === 1,
    }));
  }

  /**
   * Resolves "latest", an effective date, any date (the official edition in
   * force that day), or the label of an unofficial edition ("unofficial:…").
   */
  resolveEdition(arg: string, family: DocumentFamily = 'cr'): { id: number; effectiveDate: string } {
    const r = this.resolver.resolve(arg, family);
    if (r.problem !== undefined) throw new UnknownEditionError(r.problem);
    return { id: r.row.id, effectiveDate: r.row.effectiveDate };
  }

  /** All rules of an edition in document order, with example texts. */
  exportRules(editionId: number): ExportRule[] {
    return (this.s.rules.all({ id: editionId }) as Array<Omit<ExportRule, 'examples'> & { examples: string }>).map((r) => ({
      number: r.number,
      parent: r.parent,
      text: r.text,
      examples: (JSON.parse(r.examples) as number[]).map((id) => this.s.text.get(id) as string),
    }));
  }

  /** Glossary of an edition in published order. */
  exportGlossary(editionId: number): Array<{ term: string; definition: string }> {
    return this.s.glossary.all({ id: editionId }) as Array<{ term: string; definition: string }>;
  }
}
