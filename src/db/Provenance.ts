import type { DocumentFamily } from '../core/types.js';
import type { Db } from './openDb.js';

/** A stored edition as provenance matching sees it. */
export interface ProvenanceEdition {
  editionId: number;
  effectiveDate: string;
  label: string;
  official: boolean;
}

/** One stored text of a rule number in one edition (see ingest/identify.ts OfficialText). */
interface StoredRuleText {
  textId: number;
  normH: number;
  /** Null when its normalized hash equals the one asked about: the body is not needed. */
  text: string | null;
}

/** A stored edition with its texts for the asked rule numbers. */
export interface ProvenanceEditionTexts extends ProvenanceEdition {
  rules: Map<string, StoredRuleText>;
}

/** A fragment source row. */
export interface FragmentSourceRow {
  fileId: number;
  family: DocumentFamily;
  editionId: number | null;
  attachedBy: 'identified' | 'option' | 'unofficial';
  referenceEditionId: number | null;
  total: number;
  matched: number;
  exact: number;
  near: number;
  rangeFrom: string | null;
  rangeTo: string | null;
  summary: string;
  report: unknown;
}

/** A fragment rule row. */
export interface FragmentRuleRow {
  ord: number;
  number: string;
  textId: number;
  examples: number[];
  status: 'match' | 'near' | 'differs' | 'absent';
}

type WriteStatements = ReturnType<Provenance['prepareWrites']>;

/**
 * Provenance reads (texts of given rule numbers in every edition of a family)
 * and fragment-source writes. Write statements are prepared on first use, so a
 * read-only database built before schema/030_sources.sql still identifies.
 */
export class Provenance {
  private readonly s;
  private w: WriteStatements | null = null;

  constructor(readonly db: Db) {
    this.s = {
      editions: db.prepare(
        `SELECT id AS editionId, effective_date AS effectiveDate, label, official FROM editions
         WHERE family = @family AND (official = 1 OR @all = 1) ORDER BY effective_date, id`,
      ),
      texts: db.prepare(
        `WITH f (number, norm_h) AS (
           SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(@rules))
         SELECT er.edition_id AS editionId, v.number, t.id AS textId, t.norm_h AS normH,
                CASE WHEN t.norm_h = f.norm_h THEN NULL ELSE t.body END AS text
         FROM f
         JOIN rule_versions v ON v.number = f.number
         JOIN edition_rules er ON er.version_id = v.id
         JOIN editions e ON e.id = er.edition_id
         JOIN texts t ON t.id = v.text_id
         WHERE e.family = @family AND (e.official = 1 OR @all = 1)
         ORDER BY er.edition_id, er.ord`,
      ),
    };
  }

  private prepareWrites() {
    const db = this.db;
    return {
      upsertSource: db.prepare(
        `INSERT INTO fragment_sources (file_id, family, edition_id, attached_by, reference_edition_id, total, matched, exact, near,
           range_from, range_to, summary, report)
         VALUES (@fileId, @family, @editionId, @attachedBy, @referenceEditionId, @total, @matched, @exact, @near,
           @rangeFrom, @rangeTo, @summary, @report)
         ON CONFLICT (file_id) DO UPDATE SET family = excluded.family, edition_id = excluded.edition_id,
           attached_by = excluded.attached_by, reference_edition_id = excluded.reference_edition_id, total = excluded.total,
           matched = excluded.matched, exact = excluded.exact, near = excluded.near, range_from = excluded.range_from,
           range_to = excluded.range_to, summary = excluded.summary, report = excluded.report`,
      ),
      sourceId: db.prepare('SELECT id FROM fragment_sources WHERE file_id = @fileId').pluck(),
      clearRules: db.prepare('DELETE FROM fragment_rules WHERE source_id = @sourceId'),
      insertRule: db.prepare(
        `INSERT INTO fragment_rules (source_id, ord, number, text_id, examples, status)
         VALUES (@sourceId, @ord, @number, @textId, @examples, @status)`,
      ),
    };
  }

  private get writes(): WriteStatements {
    this.w ??= this.prepareWrites();
    return this.w;
  }

  /** Stored editions of a family, oldest first: official ones, or all with `includeUnofficial`. */
  editions(family: DocumentFamily, includeUnofficial = false): ProvenanceEdition[] {
    return (this.s.editions.all({ family, all: includeUnofficial ? 1 : 0 }) as Array<Omit<ProvenanceEdition, 'official'> & { official: number }>).map((e) => ({
      ...e,
      official: e.official === 1,
    }));
  }

  /**
   * For each edition of the family, the stored texts of the given rule numbers.
   * Exact matches are found by normalized hash in SQL; bodies are read only
   * for texts whose hash differs from the one given.
   */
  editionTexts(family: DocumentFamily, rules: Array<{ number: string; normH: number }>, includeUnofficial = false): ProvenanceEditionTexts[] {
    const out = new Map<number, ProvenanceEditionTexts>();
    for (const e of this.editions(family, includeUnofficial)) out.set(e.editionId, { ...e, rules: new Map() });
    const json = JSON.stringify(rules.map((r) => [r.number, r.normH]));
    const all = includeUnofficial ? 1 : 0;
    for (const row of this.s.texts.iterate({ family, rules: json, all }) as Iterable<StoredRuleText & { editionId: number; number: string }>) {
      const e = out.get(row.editionId);
      // A damaged edition may hold a number twice: the first one counts.
      if (e && !e.rules.has(row.number)) e.rules.set(row.number, { textId: row.textId, normH: row.normH, text: row.text });
    }
    return [...out.values()];
  }

  /** Stores (or replaces) the fragment source of a recorded file with its rules; returns its id. */
  storeSource(source: FragmentSourceRow, rules: FragmentRuleRow[]): number {
    const w = this.writes;
    w.upsertSource.run({ ...source, report: JSON.stringify(source.report) });
    const sourceId = w.sourceId.get({ fileId: source.fileId }) as number;
    w.clearRules.run({ sourceId });
    for (const r of rules) w.insertRule.run({ sourceId, ...r, examples: JSON.stringify(r.examples) });
    return sourceId;
  }
}
