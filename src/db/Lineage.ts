import type { Statement } from 'better-sqlite3';
import type { DocumentFamily } from '../core/types.js';
import { lazyStatements } from './lazyStatements.js';
import type { Db } from './openDb.js';

/** An official edition in its family's chain. */
export interface ChainEdition {
  id: number;
  effectiveDate: string;
}

/** A rule of an edition as the lineage step aligns it (see Lineage.alignRows). */
export interface AlignRow {
  versionId: number;
  number: string;
  parent: string | null;
  kind: string;
  textId: number;
  /** Its text ('' when the text is missing). */
  text: string;
  /** Its examples' text ids, JSON. */
  examples: string;
}

/** Lineage storage and the reads of history and refs (statements prepared on first use, named parameters). */
export class Lineage {
  private readonly st: (name: string) => Statement;

  constructor(readonly db: Db) {
    const p = (sql: string): Statement => db.prepare(sql);
    this.st = lazyStatements({
      chain: () =>
        p(
          `SELECT id, effective_date AS effectiveDate FROM editions
         WHERE family = @family AND official = 1 ORDER BY effective_date, id`,
        ),
      state: () => p('SELECT edition_id AS editionId, prev_edition_id AS prevId FROM edition_lineage'),
      setState: () => p('INSERT OR REPLACE INTO edition_lineage (edition_id, prev_edition_id) VALUES (@editionId, @prevId)'),
      ids: () => p('SELECT lineage_id FROM edition_rules WHERE edition_id = @editionId ORDER BY ord').pluck(),
      alignRows: () =>
        p(
          `SELECT rv.id AS versionId, rv.number, rv.parent, rv.kind, rv.text_id AS textId, coalesce(t.body, '') AS text, rv.examples
         FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id LEFT JOIN texts t ON t.id = rv.text_id
         WHERE er.edition_id = @editionId ORDER BY er.ord`,
        ),
      textsById: () => p('SELECT id, body FROM texts WHERE id IN (SELECT value FROM json_each(@ids))'),
      // Rows are updated through the conflict path of an upsert: one primary-key seek per row,
      // in one statement (a set-based UPDATE ... FROM json_each was planned as a scan). Every row
      // exists, so nothing is inserted; a missing one would fail on version_id's foreign key.
      setLineages: () =>
        p(
          `INSERT INTO edition_rules (edition_id, ord, version_id, lineage_id)
         SELECT @editionId, value ->> 0, 0, value ->> 1 FROM json_each(@rows) WHERE true
         ON CONFLICT (edition_id, ord) DO UPDATE SET lineage_id = excluded.lineage_id`,
        ),
      maxLineage: () => p('SELECT coalesce(max(lineage_id), 0) FROM edition_rules').pluck(),
      getNext: () => p(`SELECT value FROM meta WHERE key = 'lineage_next_id'`).pluck(),
      setNext: () => p(`INSERT OR REPLACE INTO meta (key, value) VALUES ('lineage_next_id', @value)`),
      clearLinks: () => p('DELETE FROM lineage_links WHERE edition_id = @editionId'),
      clearPairs: () => p('DELETE FROM lineage_pairs WHERE edition_id = @editionId'),
      insertPairs: () =>
        p(
          `INSERT INTO lineage_pairs (edition_id, ord, method, score)
         SELECT @editionId, value ->> 0, value ->> 1, value ->> 2 FROM json_each(@rows)`,
        ),
      pairsOf: () =>
        p(
          `SELECT rv.number, lp.method, lp.score FROM lineage_pairs lp
           JOIN edition_rules er ON er.edition_id = lp.edition_id AND er.ord = lp.ord
           JOIN rule_versions rv ON rv.id = er.version_id
         WHERE lp.edition_id = @editionId`,
        ).raw(true),
      insertLink: () =>
        p(
          `INSERT OR IGNORE INTO lineage_links (edition_id, kind, ord, prev_edition_id, prev_ord)
         VALUES (@editionId, @kind, @ord, @prevId, @prevOrd)`,
        ),
      lineageOf: () =>
        p(
          `SELECT er.lineage_id FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id
         WHERE er.edition_id = @editionId AND rv.number = @number`,
        ).pluck(),
    });
  }

  /** Official editions of a family in date order: the lineage chain. */
  chain(family: DocumentFamily): ChainEdition[] {
    return this.st('chain').all({ family }) as ChainEdition[];
  }

  /** For each edition with lineage ids, the predecessor they were computed against. */
  states(): Map<number, number | null> {
    const rows = this.st('state').all() as Array<{ editionId: number; prevId: number | null }>;
    return new Map(rows.map((r) => [r.editionId, r.prevId]));
  }

  /** Records that an edition's ids were computed against `prevId`. */
  setState(editionId: number, prevId: number | null): void {
    this.st('setState').run({ editionId, prevId });
  }

  /** Stored lineage ids of an edition's rules, in document order (null where not computed). */
  lineageIds(editionId: number): Array<number | null> {
    return this.st('ids').all({ editionId }) as Array<number | null>;
  }

  /** An edition's rules in document order, each with its version, text and example text ids (JSON), for aligning. */
  alignRows(editionId: number): AlignRow[] {
    return this.st('alignRows').all({ editionId }) as AlignRow[];
  }

  /** The texts with these ids, by id (an id with no text is absent). */
  textsById(ids: number[]): Map<number, string> {
    const rows = this.st('textsById').all({ ids: JSON.stringify(ids) }) as Array<{ id: number; body: string }>;
    return new Map(rows.map((r) => [r.id, r.body]));
  }

  /** Writes the lineage ids of an edition's rules (`ids[ord]`) where they differ from `old`; returns how many. */
  setLineages(editionId: number, ids: ArrayLike<number>, old: ArrayLike<number | null>): number {
    const rows: Array<[number, number]> = [];
    for (let ord = 0; ord < ids.length; ord++) if (ids[ord] !== old[ord]) rows.push([ord, ids[ord]!]);
    if (rows.length > 0) this.st('setLineages').run({ editionId, rows: JSON.stringify(rows) });
    return rows.length;
  }

  /** The next unused lineage id (ids are never reused, even after an edition is replaced). */
  nextId(): number {
    const stored = this.st('getNext').get() as string | undefined;
    const max = (this.st('maxLineage').get() as number) + 1;
    return stored === undefined ? max : Math.max(Number(stored), max);
  }

  /** Stores the next unused lineage id. */
  setNextId(value: number): void {
    this.st('setNext').run({ value: String(value) });
  }

  /** Replaces the splits and merges recorded between an edition and its predecessor. */
  replaceLinks(editionId: number, prevId: number, links: Array<{ kind: 'split' | 'merge'; ord: number; prevOrd: number }>): void {
    this.st('clearLinks').run({ editionId });
    for (const l of links) this.st('insertLink').run({ editionId, prevId, kind: l.kind, ord: l.ord, prevOrd: l.prevOrd });
  }

  /** Replaces the recorded reasons of an edition's pairs with its predecessor: [ord, method, score] rows. */
  replacePairs(editionId: number, rows: Array<[ord: number, method: string, score: number]>): void {
    this.st('clearPairs').run({ editionId });
    if (rows.length > 0) this.st('insertPairs').run({ editionId, rows: JSON.stringify(rows) });
  }

  /** Why each rule of an edition continues its predecessor's rule, by rule number (rules paired on identical text are absent). */
  pairReasons(editionId: number): Map<string, { method: string; score: number }> {
    const rows = this.st('pairsOf').all({ editionId }) as Array<[string, string, number]>;
    return new Map(rows.map(([number, method, score]) => [number, { method, score }]));
  }

  /** The lineage id of a rule number in an edition, or null. */
  lineageOf(editionId: number, number: string): number | null {
    return (this.st('lineageOf').get({ editionId, number }) as number | null | undefined) ?? null;
  }
}
