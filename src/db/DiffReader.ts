import type { Statement } from 'better-sqlite3';
import type { Reference } from '../core/references.js';
import type { AlignRule } from '../engine/align.js';
import { lazyStatements } from './lazyStatements.js';
import type { Db } from './openDb.js';

/** A stored rule version as the differ reads it. */
export interface DiffVersion {
  textId: number;
  text: string;
  /** Hash of the normalized text (texts.norm_h). */
  normHash: number;
  /** The stored JSON array of example text ids. */
  exampleIds: string;
}

/** The reads of an edition diff (src/engine/loadDiff), prepared on first use with named parameters. */
export class DiffReader {
  private readonly st: (name: string) => Statement;

  constructor(readonly db: Db) {
    const p = (sql: string): Statement => db.prepare(sql);
    this.st = lazyStatements({
      // Column-wise JSON (parsed natively) instead of one JS row per rule. A rule outside the
      // chain (never aligned) is its own lineage.
      ruleIds: () => p(
        `SELECT json_array(json_group_array(coalesce(er.lineage_id, -(@editionId * 100000 + er.ord))),
                json_group_array(er.version_id), json_group_array(rv.number))
         FROM (SELECT ord, lineage_id, version_id FROM edition_rules WHERE edition_id = @editionId ORDER BY ord) er
           CROSS JOIN rule_versions rv ON rv.id = er.version_id`,
      ).pluck(),
      // Texts joined by NUL rather than in a JSON array: no escaping in SQLite, no parsing in JS
      // (a fifth less time for thousands of texts). versionsJson is the fallback should a text hold a NUL.
      versions: () => p(
        `SELECT json_array(json_group_array(rv.id), json_group_array(rv.text_id), json_group_array(t.norm_h),
                json_group_array(nullif(rv.examples, '[]'))), group_concat(t.body, char(0))
         FROM json_each(@ids) j CROSS JOIN rule_versions rv ON rv.id = j.value JOIN texts t ON t.id = rv.text_id`,
      ).raw(true),
      versionsJson: () => p(
        `SELECT json_group_array(t.body)
         FROM json_each(@ids) j CROSS JOIN rule_versions rv ON rv.id = j.value JOIN texts t ON t.id = rv.text_id`,
      ).pluck(),
      refsOfTexts: () => p(
        `SELECT json_group_array(json_array(r.text_id, r.target, r.kind, r.start, r."end") ORDER BY r.text_id, r.ord)
         FROM json_each(@ids) j CROSS JOIN text_refs r ON r.text_id = j.value`,
      ).pluck(),
      glossaryIds: () => p(
        `SELECT json_array(json_group_array(g.term), json_group_array(g.text_id))
         FROM (SELECT version_id FROM edition_glossary WHERE edition_id = @editionId ORDER BY ord) eg
           CROSS JOIN glossary_versions g ON g.id = eg.version_id`,
      ).pluck(),
      texts: () => p('SELECT t.id, t.body FROM json_each(@ids) j CROSS JOIN texts t ON t.id = j.value').raw(true),
      // splits and merges recorded on the chain after `from` up to `to` (a forward diff's span)
      linksBetween: () => p(
        `SELECT l.kind, a.lineage_id AS lineage, b.lineage_id AS prevLineage
         FROM editions f, editions t, editions ea JOIN lineage_links l ON l.edition_id = ea.id
           JOIN edition_rules a ON a.edition_id = l.edition_id AND a.ord = l.ord
           JOIN edition_rules b ON b.edition_id = l.prev_edition_id AND b.ord = l.prev_ord
         WHERE f.id = @fromId AND t.id = @toId AND ea.family = t.family AND ea.official = 1
           AND ea.effective_date > f.effective_date AND ea.effective_date <= t.effective_date
         ORDER BY ea.effective_date`,
      ),
      alignRules: () => p(
        `SELECT rv.number, rv.parent, rv.kind, t.body FROM edition_rules er
           JOIN rule_versions rv ON rv.id = er.version_id JOIN texts t ON t.id = rv.text_id
         WHERE er.edition_id = @editionId ORDER BY er.ord`,
      ).raw(true),
      parts: () => p('SELECT number, title FROM edition_parts WHERE edition_id = @editionId ORDER BY ord').raw(true),
    });
  }

  /** Lineage ids, version ids and numbers of an edition's rules, in document order. */
  ruleIds(editionId: number): { lineages: number[]; versions: number[]; numbers: string[] } {
    const [lineages, versions, numbers] = JSON.parse(this.st('ruleIds').get({ editionId }) as string) as [number[], number[], string[]];
    return { lineages, versions, numbers };
  }

  /** Rule versions by id, with their texts (one query). */
  versions(ids: Iterable<number>): Map<number, DiffVersion> {
    const params = { ids: JSON.stringify([...ids]) };
    const [meta, joined] = this.st('versions').get(params) as [string, string | null];
    const [vids, textIds, normHashes, exampleIds] = JSON.parse(meta) as [number[], number[], number[], Array<string | null>];
    let texts = joined === null ? [] : joined.split('\0');
    if (texts.length !== vids.length) texts = JSON.parse(this.st('versionsJson').get(params) as string) as string[];
    const out = new Map<number, DiffVersion>();
    for (let k = 0; k < vids.length; k++) {
      out.set(vids[k]!, { textId: textIds[k]!, text: texts[k]!, normHash: normHashes[k]!, exampleIds: exampleIds[k] ?? '[]' });
    }
    return out;
  }

  /** Stored references of the given texts, by text id (one query). */
  refsOfTexts(ids: Iterable<number>): Map<number, Reference[]> {
    const out = new Map<number, Reference[]>();
    type Row = [number, string, Reference['kind'], number, number];
    const rows = JSON.parse(this.st('refsOfTexts').get({ ids: JSON.stringify([...ids]) }) as string) as Row[];
    for (const [textId, target, kind, start, end] of rows) {
      let list = out.get(textId);
      if (!list) out.set(textId, (list = []));
      list.push({ target, kind, start, end });
    }
    return out;
  }

  /** An edition's glossary terms with their definition text ids, in document order. */
  glossaryIds(editionId: number): Array<[term: string, textId: number]> {
    const [terms, textIds] = JSON.parse(this.st('glossaryIds').get({ editionId }) as string) as [string[], number[]];
    return terms.map((t, k) => [t, textIds[k]!]);
  }

  /** Splits and merges recorded between two editions of a chain (`from` the earlier), by lineage, oldest first. */
  linksBetween(fromId: number, toId: number): Array<{ kind: 'split' | 'merge'; lineage: number; prevLineage: number }> {
    return this.st('linksBetween').all({ fromId, toId }) as Array<{ kind: 'split' | 'merge'; lineage: number; prevLineage: number }>;
  }

  /** An edition's rules as the aligner reads them (examples left out), in document order. */
  alignRules(editionId: number): AlignRule[] {
    const rows = this.st('alignRules').all({ editionId }) as Array<[string, string | null, string, string]>;
    return rows.map(([number, parent, kind, text]) => ({ number, parent, kind, text, examples: [] }));
  }

  /** An edition's parts: [number, title] in document order. */
  parts(editionId: number): Array<[number: string, title: string]> {
    return this.st('parts').all({ editionId }) as Array<[string, string]>;
  }

  /** Texts by id (one query). */
  texts(ids: Iterable<number>): Map<number, string> {
    return new Map(this.st('texts').all({ ids: JSON.stringify([...ids]) }) as Array<[number, string]>);
  }
}
