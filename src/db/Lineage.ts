import type { Statement } from 'better-sqlite3';
import type { DocumentFamily } from '../core/types.js';
import type { DiffEdition, DiffRule } from '../engine/diffEditions.js';
import type { Reference } from '../core/references.js';
import { citedTitle, titleMatches } from '../core/references.js';
import { lazyStatements } from './lazyStatements.js';
import type { Db } from './openDb.js';

/** An official edition in its family's chain. */
export interface ChainEdition {
  id: number;
  effectiveDate: string;
}

/** One appearance of a lineage in an official edition. */
export interface LineageRow {
  editionId: number;
  date: string;
  number: string;
  text: string;
  textId: number;
  examples: string[];
  lineage: number;
}

/** A split or merge touching a lineage. */
export interface LineageLink {
  kind: 'split' | 'merge';
  date: string;
  number: string;
  lineage: number;
  prevDate: string;
  prevNumber: string;
  prevLineage: number;
}

/** A reference whose target is no rule, section or part of its edition. */
export interface DanglingRef {
  /** Where it is: a rule's text, one of its examples, or a glossary definition. */
  source: 'rule' | 'example' | 'glossary';
  /** The citing rule's number, or the glossary term. */
  at: string;
  target: string;
  kind: 'rule' | 'section' | 'part';
  /** The mention as it reads in the text. */
  mention: string;
}

/** A reference whose target exists but no longer is what its quoted title names ("rule 727, "Day and Night"" when 727 is another rule). */
export interface StaleRef extends DanglingRef {
  /** The title the citation quotes. */
  cited: string;
  /** The target's own title (its text) in the edition. */
  title: string;
}

// Every text of an edition that may cite (rule texts, examples, glossary definitions), in document order.
const SOURCES = `src AS (
           SELECT 'rule' AS source, er.ord AS ord, rv.number AS at, rv.text_id AS textId
           FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id WHERE er.edition_id = @editionId
           UNION ALL
           SELECT 'example', er.ord, rv.number, j.value
           FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id JOIN json_each(rv.examples) j
           WHERE er.edition_id = @editionId AND rv.examples <> '[]'
           UNION ALL
           SELECT 'glossary', 1000000 + eg.ord, gv.term, gv.text_id
           FROM edition_glossary eg JOIN glossary_versions gv ON gv.id = eg.version_id WHERE eg.edition_id = @editionId
         )`;

const EXAMPLES_COL = `CASE WHEN rv.examples = '[]' THEN '[]' ELSE
  (SELECT json_group_array(x.body ORDER BY j.key) FROM json_each(rv.examples) j JOIN texts x ON x.id = j.value) END`;

/** Lineage storage and the reads of history and refs (statements prepared on first use, named parameters). */
export class Lineage {
  private readonly st: (name: string) => Statement;

  constructor(readonly db: Db) {
    const p = (sql: string): Statement => db.prepare(sql);
    this.st = lazyStatements({
      chain: () => p(
        `SELECT id, effective_date AS effectiveDate FROM editions
         WHERE family = @family AND official = 1 ORDER BY effective_date, id`,
      ),
      state: () => p('SELECT edition_id AS editionId, prev_edition_id AS prevId FROM edition_lineage'),
      setState: () => p('INSERT OR REPLACE INTO edition_lineage (edition_id, prev_edition_id) VALUES (@editionId, @prevId)'),
      ids: () => p('SELECT lineage_id FROM edition_rules WHERE edition_id = @editionId ORDER BY ord').pluck(),
      versionIds: () => p('SELECT version_id FROM edition_rules WHERE edition_id = @editionId ORDER BY ord').pluck(),
      allVersions: () => p('SELECT id, number, parent, kind, text_id AS textId, examples FROM rule_versions'),
      // Rows are updated through the conflict path of an upsert: one primary-key seek per row,
      // in one statement (a set-based UPDATE ... FROM json_each was planned as a scan). Every row
      // exists, so nothing is inserted; a missing one would fail on version_id's foreign key.
      setLineages: () => p(
        `INSERT INTO edition_rules (edition_id, ord, version_id, lineage_id)
         SELECT @editionId, value ->> 0, 0, value ->> 1 FROM json_each(@rows) WHERE true
         ON CONFLICT (edition_id, ord) DO UPDATE SET lineage_id = excluded.lineage_id`,
      ),
      allTexts: () => p('SELECT id, body FROM texts'),
      maxLineage: () => p('SELECT coalesce(max(lineage_id), 0) FROM edition_rules').pluck(),
      getNext: () => p(`SELECT value FROM meta WHERE key = 'lineage_next_id'`).pluck(),
      setNext: () => p(`INSERT OR REPLACE INTO meta (key, value) VALUES ('lineage_next_id', @value)`),
      clearLinks: () => p('DELETE FROM lineage_links WHERE edition_id = @editionId'),
      clearPairs: () => p('DELETE FROM lineage_pairs WHERE edition_id = @editionId'),
      insertPairs: () => p(
        `INSERT INTO lineage_pairs (edition_id, ord, method, score)
         SELECT @editionId, value ->> 0, value ->> 1, value ->> 2 FROM json_each(@rows)`,
      ),
      pairsOf: () => p(
        `SELECT rv.number, lp.method, lp.score FROM lineage_pairs lp
           JOIN edition_rules er ON er.edition_id = lp.edition_id AND er.ord = lp.ord
           JOIN rule_versions rv ON rv.id = er.version_id
         WHERE lp.edition_id = @editionId`,
      ).raw(true),
      insertLink: () => p(
        `INSERT OR IGNORE INTO lineage_links (edition_id, kind, ord, prev_edition_id, prev_ord)
         VALUES (@editionId, @kind, @ord, @prevId, @prevOrd)`,
      ),
      refsOfEdition: () => p(
        `SELECT DISTINCT r.text_id AS textId, r.ord, r.target, r.kind, r.start, r."end" AS "end"
         FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id JOIN text_refs r ON r.text_id = rv.text_id
         WHERE er.edition_id = @editionId ORDER BY r.text_id, r.ord`,
      ),
      diffRules: () => p(
        `SELECT er.ord, rv.number, rv.parent, rv.kind, rv.text_id, t.body, rv.examples, er.lineage_id
         FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id JOIN texts t ON t.id = rv.text_id
         WHERE er.edition_id = @editionId ORDER BY er.ord`,
      ).raw(true),
      exampleTexts: () => p(
        `SELECT j.value, x.body FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id
           JOIN json_each(rv.examples) j JOIN texts x ON x.id = j.value
         WHERE er.edition_id = @editionId AND rv.examples <> '[]'`,
      ).raw(true),
      glossary: () => p(
        `SELECT g.term, t.body AS definition
         FROM edition_glossary eg JOIN glossary_versions g ON g.id = eg.version_id JOIN texts t ON t.id = g.text_id
         WHERE eg.edition_id = @editionId ORDER BY eg.ord`,
      ),
      parts: () => p('SELECT number, title FROM edition_parts WHERE edition_id = @editionId ORDER BY ord').raw(true),
      glossaryChain: () => p(
        `SELECT e.effective_date, g.term, t.body
         FROM editions e JOIN edition_glossary eg ON eg.edition_id = e.id
           JOIN glossary_versions g ON g.id = eg.version_id JOIN texts t ON t.id = g.text_id
         WHERE e.family = @family AND e.official = 1 ORDER BY e.effective_date, e.id, eg.ord`,
      ).raw(true),
      lineageOf: () => p(
        `SELECT er.lineage_id FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id
         WHERE er.edition_id = @editionId AND rv.number = @number`,
      ).pluck(),
      lineageRows: () => p(
        `SELECT er.edition_id AS editionId, e.effective_date AS date, rv.number, t.body AS text, rv.text_id AS textId,
                ${EXAMPLES_COL} AS examples, er.lineage_id AS lineage
         FROM edition_rules er JOIN editions e ON e.id = er.edition_id
           JOIN rule_versions rv ON rv.id = er.version_id JOIN texts t ON t.id = rv.text_id
         WHERE er.lineage_id = @lineage AND e.family = @family AND e.official = 1
         ORDER BY e.effective_date, er.ord`,
      ),
      linksOfLineage: () => p(
        `SELECT l.kind, ea.effective_date AS date, rva.number, a.lineage_id AS lineage,
                eb.effective_date AS prevDate, rvb.number AS prevNumber, b.lineage_id AS prevLineage
         FROM lineage_links l
           JOIN edition_rules a ON a.edition_id = l.edition_id AND a.ord = l.ord
           JOIN rule_versions rva ON rva.id = a.version_id JOIN editions ea ON ea.id = l.edition_id
           JOIN edition_rules b ON b.edition_id = l.prev_edition_id AND b.ord = l.prev_ord
           JOIN rule_versions rvb ON rvb.id = b.version_id JOIN editions eb ON eb.id = l.prev_edition_id
         WHERE a.lineage_id = @lineage OR b.lineage_id = @lineage
         ORDER BY ea.effective_date`,
      ),
      editionsWithNumber: () => p(
        `SELECT e.id, e.effective_date AS effectiveDate FROM rule_versions rv
           JOIN edition_rules er ON er.version_id = rv.id JOIN editions e ON e.id = er.edition_id
         WHERE rv.number = @number AND e.family = @family AND e.official = 1
         ORDER BY e.effective_date`,
      ),
      allNumbers: () => p('SELECT DISTINCT number FROM rule_versions').pluck(),
      // references followed by a quote, with their target's text (a rule's or section's, or the part's title)
      citedTitles: () => p(
        `WITH ${SOURCES},
         nums AS (
           SELECT rv.number, min(t.body) AS body FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id
             JOIN texts t ON t.id = rv.text_id
           WHERE er.edition_id = @editionId GROUP BY rv.number
         )
         SELECT src.source, src.at, r.target, r.kind, t.body, r.start, r."end" AS "end",
                CASE WHEN r.kind = 'part' THEN p.title ELSE n.body END AS title
         FROM src JOIN text_refs r ON r.text_id = src.textId JOIN texts t ON t.id = src.textId
           LEFT JOIN nums n ON r.kind <> 'part' AND n.number = r.target
           LEFT JOIN edition_parts p ON r.kind = 'part' AND p.edition_id = @editionId AND p.number = r.target
         WHERE (instr(substr(t.body, r."end" + 1, 4), '"') > 0 OR instr(substr(t.body, r."end" + 1, 4), '“') > 0)
           AND CASE WHEN r.kind = 'part' THEN p.title ELSE n.body END IS NOT NULL
         ORDER BY src.ord, r.ord`,
      ),
      dangling: () => p(
        `WITH nums AS (
           SELECT rv.number FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id
           WHERE er.edition_id = @editionId
         ),
         ${SOURCES}
         SELECT src.source, src.at, r.target, r.kind, substr(t.body, r.start + 1, r."end" - r.start) AS mention
         FROM src JOIN text_refs r ON r.text_id = src.textId JOIN texts t ON t.id = src.textId
         WHERE r.target NOT IN (SELECT number FROM nums)
           AND NOT (r.kind = 'part' AND r.target IN (SELECT number FROM edition_parts WHERE edition_id = @editionId))
         ORDER BY src.ord, r.ord`,
      ),
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

  /** Rule version ids of an edition, in document order. */
  versionIds(editionId: number): number[] {
    return this.st('versionIds').all({ editionId }) as number[];
  }

  /** Every stored rule version by id, with its text and example ids. */
  allVersions(): Map<number, { number: string; parent: string | null; kind: string; textId: number; exampleIds: number[] }> {
    const out = new Map<number, { number: string; parent: string | null; kind: string; textId: number; exampleIds: number[] }>();
    const rows = this.st('allVersions').iterate() as Iterable<{
      id: number;
      number: string;
      parent: string | null;
      kind: string;
      textId: number;
      examples: string;
    }>;
    for (const { id, examples, ...v } of rows) {
      out.set(id, { ...v, exampleIds: examples === '[]' ? [] : (JSON.parse(examples) as number[]) });
    }
    return out;
  }

  /** Every stored text by id. */
  allTexts(): Map<number, string> {
    const out = new Map<number, string>();
    for (const r of this.st('allTexts').iterate() as Iterable<{ id: number; body: string }>) out.set(r.id, r.body);
    return out;
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
  replaceLinks(
    editionId: number,
    prevId: number,
    links: Array<{ kind: 'split' | 'merge'; ord: number; prevOrd: number }>,
  ): void {
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

  /** An edition as the differ reads it: rules with lineage ids and stored references, and the glossary. */
  diffEdition(editionId: number, date: string): DiffEdition {
    const refs = this.refsOfEdition(editionId);
    const ex = new Map(this.st('exampleTexts').all({ editionId }) as Array<[number, string]>);
    type Row = [number, string, string | null, string, number, string, string, number | null];
    const rules: DiffRule[] = (this.st('diffRules').all({ editionId }) as Row[]).map(
      ([ord, number, parent, kind, textId, text, examples, lineage]) => ({
        number,
        text,
        parent,
        kind,
        examples: examples === '[]' ? [] : (JSON.parse(examples) as number[]).map((id) => ex.get(id) ?? ''),
        // a rule outside the chain (never aligned) is its own lineage
        lineage: lineage ?? -(editionId * 100000 + ord),
        refs: refs.get(textId) ?? [],
      }),
    );
    const glossary = this.st('glossary').all({ editionId }) as Array<{ term: string; definition: string }>;
    const parts = this.st('parts').all({ editionId }) as Array<[string, string]>;
    return { date, rules, glossary, parts };
  }

  /** Stored references of every rule text of an edition, by text id. */
  refsOfEdition(editionId: number): Map<number, Reference[]> {
    const out = new Map<number, Reference[]>();
    for (const r of this.st('refsOfEdition').all({ editionId }) as Array<Reference & { textId: number; ord: number }>) {
      const { textId, ord: _ord, ...ref } = r;
      let list = out.get(textId);
      if (!list) out.set(textId, (list = []));
      list.push(ref);
    }
    return out;
  }

  /** The glossary of every official edition of the family, in chain order (editions without one are left out). */
  glossaryChain(family: DocumentFamily = 'cr'): Array<{ date: string; entries: Array<{ term: string; definition: string }> }> {
    const out: Array<{ date: string; entries: Array<{ term: string; definition: string }> }> = [];
    for (const [date, term, definition] of this.st('glossaryChain').iterate({ family }) as Iterable<[string, string, string]>) {
      let last = out[out.length - 1];
      if (!last || last.date !== date) out.push((last = { date, entries: [] }));
      last.entries.push({ term, definition });
    }
    return out;
  }

  /** The lineage id of a rule number in an edition, or null. */
  lineageOf(editionId: number, number: string): number | null {
    return (this.st('lineageOf').get({ editionId, number }) as number | null | undefined) ?? null;
  }

  /** Every appearance of a lineage in the family's official editions, oldest first. */
  lineageRows(lineage: number, family: DocumentFamily = 'cr'): LineageRow[] {
    return (this.st('lineageRows').all({ lineage, family }) as Array<Omit<LineageRow, 'examples'> & { examples: string }>).map(
      (r) => ({ ...r, examples: JSON.parse(r.examples) as string[] }),
    );
  }

  /** Splits and merges a lineage took part in. */
  linksOf(lineage: number): LineageLink[] {
    return this.st('linksOfLineage').all({ lineage }) as LineageLink[];
  }

  /** Official editions in which a rule number appears, oldest first. */
  editionsWithNumber(number: string, family: DocumentFamily = 'cr'): ChainEdition[] {
    return this.st('editionsWithNumber').all({ number, family }) as ChainEdition[];
  }

  /** Every rule number ever stored. */
  allNumbers(): string[] {
    return this.st('allNumbers').all() as string[];
  }

  /** References of an edition whose quoted title no longer names their (existing) target. */
  staleRefs(editionId: number): StaleRef[] {
    type Row = Omit<StaleRef, 'mention' | 'cited'> & { body: string; start: number; end: number };
    const out: StaleRef[] = [];
    for (const r of this.st('citedTitles').all({ editionId }) as Row[]) {
      const cited = citedTitle(r.body, r.end);
      if (cited === null || titleMatches(cited, r.title)) continue;
      out.push({ source: r.source, at: r.at, target: r.target, kind: r.kind, mention: r.body.slice(r.start, r.end), cited, title: r.title });
    }
    return out;
  }

  /** References of an edition (rule texts, examples, glossary) that resolve to nothing in it. */
  dangling(editionId: number): DanglingRef[] {
    return this.st('dangling').all({ editionId }) as DanglingRef[];
  }
}
