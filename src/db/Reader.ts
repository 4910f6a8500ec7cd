import type { Statement } from 'better-sqlite3';
import { EditionSearch, type SearchQuery } from './EditionSearch.js';
import { EDITION_COLS, EditionResolver, type EditionInfo, type EditionRowDb } from './EditionResolver.js';
import type { Db } from './openDb.js';

export type { EditionInfo } from './EditionResolver.js';


/** One rule as it reads in one edition. */
export interface RuleRecord {
  editionId: number;
  /** Position in the edition's document order. */
  ord: number;
  versionId: number;
  number: string;
  kind: string;
  parent: string | null;
  textId: number;
  text: string;
  /** Text ids of the rule's examples, in published order. */
  exampleIds: number[];
  lineageId: number | null;
}

/** A glossary entry as it reads in one edition. */
export interface GlossaryRecord {
  editionId: number;
  ord: number;
  versionId: number;
  term: string;
  textId: number;
  definition: string;
}

/** A keyword ability or action of one edition. */
export interface KeywordRecord {
  kind: 'ability' | 'action';
  number: string;
  name: string;
  editionId: number;
}

/** One stored cross-reference of a text. */
export interface TextRefRecord {
  textId: number;
  ord: number;
  target: string;
  kind: 'rule' | 'section' | 'part';
  start: number;
  end: number;
}

/** A part heading ("7. Additional Rules"). */
export interface PartRecord {
  number: string;
  title: string;
}

/** What a search hit is: a rule's text, one of its examples, or a glossary definition. */
export type SearchHitKind = 'rule' | 'example' | 'glossary';

/** One full-text search hit in an edition. */
export interface SearchHitRecord {
  kind: SearchHitKind;
  textId: number;
  /** bm25 score: lower is better. */
  score: number;
  /** The rule (kind rule or example). */
  rule: RuleRecord | null;
  /** Index of the example within its rule (kind example). */
  exampleIndex: number | null;
  glossary: GlossaryRecord | null;
  snippet: string;
  highlighted: string;
}

/** Markers around matched terms in snippets and highlights. */
export interface HighlightMarks {
  open: string;
  close: string;
}

/** A rule as RULE_COLS select it: example ids still as stored, a JSON array. */
type RuleRow = Omit<RuleRecord, 'exampleIds'> & { examples: string };

function toRule(r: RuleRow): RuleRecord {
  return {
    editionId: r.editionId,
    ord: r.ord,
    versionId: r.versionId,
    number: r.number,
    kind: r.kind,
    parent: r.parent,
    textId: r.textId,
    text: r.text,
    exampleIds: JSON.parse(r.examples) as number[],
    lineageId: r.lineageId,
  };
}

type Resolution = { edition: EditionInfo; exact: boolean; problem?: undefined } | { problem: string };

function toEdition(r: EditionRowDb): EditionInfo {
  return { ...r, official: r.official === 1 };
}

const RULE_COLS = `er.edition_id AS editionId, er.ord AS ord, rv.id AS versionId, rv.number AS number, rv.kind AS kind,
  rv.parent AS parent, rv.text_id AS textId, t.body AS text, rv.examples AS examples, er.lineage_id AS lineageId`;
const RULE_FROM = `edition_rules er JOIN rule_versions rv ON rv.id = er.version_id JOIN texts t ON t.id = rv.text_id`;
const GLOSSARY_COLS = `eg.edition_id AS editionId, eg.ord AS ord, gv.id AS versionId, gv.term AS term,
  gv.text_id AS textId, t.body AS definition`;
const GLOSSARY_FROM = `edition_glossary eg JOIN glossary_versions gv ON gv.id = eg.version_id JOIN texts t ON t.id = gv.text_id`;

/** Unicode letters and digits: what the FTS tokenizer keeps. */
const TOKEN_RE = /[\p{L}\p{N}]+/gu;

/**
 * Turns user text into a safe FTS5 query: every word becomes a quoted FTS
 * string, so nothing the user types is ever read as FTS syntax. Returns null
 * when no searchable word is left.
 */
export function ftsQuery(text: string, join: 'and' | 'or' = 'and'): string | null {
  const words = text.match(TOKEN_RE);
  if (!words || words.length === 0) return null;
  return words
    .slice(0, 32)
    .map((w) => `"${w.replace(/"/g, '""')}"`)
    .join(join === 'and' ? ' ' : ' OR ');
}

/** ftsQuery with the words it quotes. */
function searchQuery(text: string, join: 'and' | 'or'): SearchQuery | null {
  const fts = ftsQuery(text, join);
  return fts === null ? null : { fts, words: text.match(TOKEN_RE)!.slice(0, 32), join };
}

/** One edition held in memory: its rules, example texts, glossary and search index. */
interface EditionData {
  rules: RuleRecord[];
  byNumber: Map<string, RuleRecord>;
  byVersion: Map<number, RuleRecord>;
  /** Position of each rule (by version id) in `rules`. */
  position: Map<number, number>;
  children: Map<string, RuleRecord[]>;
  numbers: string[];
  /** Example bodies by text id. */
  texts: Map<number, string>;
  glossary: GlossaryRecord[];
  glossaryByVersion: Map<number, GlossaryRecord>;
  search: { index: EditionSearch; places: Map<number, Place[]> } | null;
}

/** Where a text sits in an edition: a rule's text, one of its examples, or a glossary definition. */
interface Place {
  ord: number;
  versionId: number | null;
  exampleIndex: number;
  glossaryVersionId: number | null;
}

/** Options of a Reader. */
export interface ReaderOptions {
  /**
   * Keep editions in memory (a few, least recently used out) and answer rule,
   * glossary and search reads from there. Only for a database nobody writes
   * while the Reader lives; default: on when the database was opened read-only.
   */
  memo?: boolean;
  /** How many editions memo mode keeps (default 4). */
  editions?: number;
}

/**
 * Every read query of the API and the query commands, prepared once with
 * named parameters. List arguments travel as JSON arrays (json_each), so one
 * statement serves any batch size.
 */
export class Reader {
  private readonly s: Record<string, Statement>;
  // Per-edition keyword lists: derived from a scan of the edition, asked for by every term lookup.
  private readonly keywordMemo = new Map<number, KeywordRecord[]>();
  private readonly memo: boolean;
  private readonly maxEditions: number;
  private readonly editionData = new Map<number, EditionData>();
  private readonly resolved = new Map<string, Resolution>();
  private readonly resolver: EditionResolver;

  constructor(
    readonly db: Db,
    opts: ReaderOptions = {},
  ) {
    this.memo = opts.memo ?? db.readonly;
    this.maxEditions = Math.max(1, opts.editions ?? 4);
    const p = (sql: string) => db.prepare(sql);
    this.resolver = new EditionResolver(db);
    this.s = {
      editionRules: p(`SELECT ${RULE_COLS} FROM ${RULE_FROM} WHERE er.edition_id = @editionId ORDER BY er.ord`),
      editionExamples: p(
        `SELECT DISTINCT t.id AS id, t.body AS body FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id
           JOIN json_each(rv.examples) j JOIN texts t ON t.id = j.value
         WHERE er.edition_id = @editionId AND rv.examples <> '[]'`,
      ),
      editions: p(`SELECT ${EDITION_COLS} FROM editions ORDER BY family, effective_date, label`),
      editionById: p(`SELECT ${EDITION_COLS} FROM editions WHERE id = @id`),
      editionsByIds: p(`SELECT ${EDITION_COLS} FROM editions WHERE id IN (SELECT value FROM json_each(@ids))`),
      ruleCount: p('SELECT count(*) FROM edition_rules WHERE edition_id = @editionId').pluck(),
      ruleByNumber: p(`SELECT ${RULE_COLS} FROM ${RULE_FROM} WHERE rv.number = @number AND er.edition_id = @editionId`),
      rulesByNumbers: p(
        `SELECT ${RULE_COLS} FROM ${RULE_FROM}
         WHERE rv.number IN (SELECT value FROM json_each(@numbers)) AND er.edition_id = @editionId`,
      ),
      rulesByVersionIds: p(
        `SELECT ${RULE_COLS} FROM ${RULE_FROM}
         WHERE er.version_id IN (SELECT value FROM json_each(@ids)) AND er.edition_id = @editionId`,
      ),
      rulesAfter: p(`SELECT ${RULE_COLS} FROM ${RULE_FROM} WHERE er.edition_id = @editionId AND er.ord > @ord ORDER BY er.ord`),
      childrenOf: p(
        `SELECT ${RULE_COLS} FROM ${RULE_FROM}
         WHERE er.edition_id = @editionId AND rv.parent IN (SELECT value FROM json_each(@numbers)) ORDER BY er.ord`,
      ),
      numbers: p(
        `SELECT rv.number FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id
         WHERE er.edition_id = @editionId ORDER BY er.ord`,
      ).pluck(),
      page: p(
        `SELECT ${RULE_COLS} FROM ${RULE_FROM}
         WHERE er.edition_id = @editionId AND er.ord > @after
           AND (@all = 1 OR rv.number = @section OR rv.number GLOB @g1 OR rv.number GLOB @g2)
         ORDER BY er.ord LIMIT @limit`,
      ),
      sectionsByTitle: p(
        `SELECT rv.number AS number, t.body AS title FROM ${RULE_FROM}
         WHERE er.edition_id = @editionId AND rv.kind = 'section'`,
      ),
      textsByIds: p('SELECT id, body FROM texts WHERE id IN (SELECT value FROM json_each(@ids))'),
      refsByTextIds: p(
        `SELECT text_id AS textId, ord, target, kind, start, "end" FROM text_refs
         WHERE text_id IN (SELECT value FROM json_each(@ids)) ORDER BY text_id, ord`,
      ),
      citing: p(
        `SELECT DISTINCT ${RULE_COLS}, r.target AS citedTarget FROM text_refs r
           JOIN rule_versions rv ON rv.text_id = r.text_id
           JOIN edition_rules er ON er.version_id = rv.id AND er.edition_id = @editionId
           JOIN texts t ON t.id = rv.text_id
         WHERE r.target IN (SELECT value FROM json_each(@numbers))
         UNION
         SELECT DISTINCT ${RULE_COLS}, r.target AS citedTarget FROM ${RULE_FROM}
           JOIN json_each(rv.examples) j JOIN text_refs r ON r.text_id = j.value
         WHERE er.edition_id = @editionId AND rv.examples <> '[]'
           AND r.target IN (SELECT value FROM json_each(@numbers))
         ORDER BY ord`,
      ),
      glossaryCiting: p(
        `SELECT DISTINCT ${GLOSSARY_COLS}, r.target AS citedTarget FROM text_refs r
           JOIN glossary_versions gv ON gv.text_id = r.text_id
           JOIN edition_glossary eg ON eg.version_id = gv.id AND eg.edition_id = @editionId
           JOIN texts t ON t.id = gv.text_id
         WHERE r.target IN (SELECT value FROM json_each(@numbers)) ORDER BY eg.ord`,
      ),
      glossaryTerm: p(
        `SELECT ${GLOSSARY_COLS} FROM ${GLOSSARY_FROM}
         WHERE eg.edition_id = @editionId AND lower(gv.term) = lower(@term) ORDER BY eg.ord`,
      ),
      glossaryAll: p(`SELECT ${GLOSSARY_COLS} FROM ${GLOSSARY_FROM} WHERE eg.edition_id = @editionId ORDER BY eg.ord`),
      parts: p('SELECT number, title FROM edition_parts WHERE edition_id = @editionId ORDER BY ord'),
      abilityWords: p('SELECT word FROM ability_words WHERE edition_id = @editionId ORDER BY ord').pluck(),
      // Matches are computed once (materialized), then joined to the edition from the small side.
      searchRules: p(
        `WITH m AS MATERIALIZED (SELECT rowid AS textId, bm25(texts_fts) AS score FROM texts_fts WHERE texts_fts MATCH @q)
         SELECT m.textId AS textId, m.score AS score, er.ord AS ord, rv.id AS versionId, -1 AS exampleIndex,
                NULL AS glossaryVersionId
         FROM m JOIN rule_versions rv ON rv.text_id = m.textId
           JOIN edition_rules er ON er.version_id = rv.id AND er.edition_id = @editionId
         UNION ALL
         SELECT m.textId, m.score, er.ord, rv.id, CAST(j.key AS INTEGER), NULL
         FROM edition_rules er JOIN rule_versions rv ON rv.id = er.version_id AND rv.examples <> '[]'
           JOIN json_each(rv.examples) j JOIN m ON m.textId = j.value
         WHERE er.edition_id = @editionId
         UNION ALL
         SELECT m.textId, m.score, 1000000 + eg.ord, NULL, -1, gv.id
         FROM edition_glossary eg JOIN glossary_versions gv ON gv.id = eg.version_id
           JOIN m ON m.textId = gv.text_id
         WHERE eg.edition_id = @editionId
         ORDER BY score, ord, exampleIndex LIMIT @limit OFFSET @offset`,
      ),
      marks: p(
        `SELECT rowid AS textId, snippet(texts_fts, 0, @open, @close, '…', 24) AS snippet,
                highlight(texts_fts, 0, @open, @close) AS highlighted
         FROM texts_fts WHERE texts_fts MATCH @q AND rowid IN (SELECT value FROM json_each(@ids))`,
      ),
      glossaryByVersionIds: p(
        `SELECT ${GLOSSARY_COLS} FROM ${GLOSSARY_FROM}
         WHERE eg.edition_id = @editionId AND eg.version_id IN (SELECT value FROM json_each(@ids))`,
      ),
    };
  }

  private st(name: string): Statement {
    const s = this.s[name];
    if (!s) throw new Error(`no statement ${name}`);
    return s;
  }

  /** The in-memory copy of an edition (memo mode only), loaded on first use, least recently used out. */
  private data(editionId: number): EditionData | null {
    if (!this.memo) return null;
    const hit = this.editionData.get(editionId);
    if (hit) {
      this.editionData.delete(editionId);
      this.editionData.set(editionId, hit);
      return hit;
    }
    const rules = (this.st('editionRules').all({ editionId }) as RuleRow[]).map(toRule);
    const byNumber = new Map<string, RuleRecord>();
    const byVersion = new Map<number, RuleRecord>();
    const position = new Map<number, number>();
    const children = new Map<string, RuleRecord[]>();
    rules.forEach((r, i) => {
      if (!byNumber.has(r.number)) byNumber.set(r.number, r);
      byVersion.set(r.versionId, r);
      position.set(r.versionId, i);
      if (r.parent !== null) {
        const c = children.get(r.parent);
        if (c) c.push(r);
        else children.set(r.parent, [r]);
      }
    });
    const texts = new Map<number, string>();
    for (const t of this.st('editionExamples').all({ editionId }) as Array<{ id: number; body: string }>) texts.set(t.id, t.body);
    const glossary = this.st('glossaryAll').all({ editionId }) as GlossaryRecord[];
    const d: EditionData = {
      rules,
      byNumber,
      byVersion,
      position,
      children,
      numbers: rules.map((r) => r.number),
      texts,
      glossary,
      glossaryByVersion: new Map(glossary.map((g) => [g.versionId, g])),
      search: null,
    };
    while (this.editionData.size >= this.maxEditions) {
      const [oldId, old] = this.editionData.entries().next().value!;
      old.search?.index.close();
      this.editionData.delete(oldId);
    }
    this.editionData.set(editionId, d);
    return d;
  }

  /** Where each text of an edition sits, and its search index (memo mode). */
  private searchOf(editionId: number): { index: EditionSearch; places: Map<number, Place[]> } | null {
    const d = this.data(editionId);
    if (!d) return null;
    if (d.search) return d.search;
    const places = new Map<number, Place[]>();
    const add = (textId: number, p: Place) => {
      const l = places.get(textId);
      if (l) l.push(p);
      else places.set(textId, [p]);
    };
    for (const r of d.rules) {
      add(r.textId, { ord: r.ord, versionId: r.versionId, exampleIndex: -1, glossaryVersionId: null });
      r.exampleIds.forEach((id, i) => add(id, { ord: r.ord, versionId: r.versionId, exampleIndex: i, glossaryVersionId: null }));
    }
    for (const g of d.glossary) add(g.textId, { ord: 1_000_000 + g.ord, versionId: null, exampleIndex: -1, glossaryVersionId: g.versionId });
    const bodies = new Map<number, string>();
    for (const r of d.rules) bodies.set(r.textId, r.text);
    for (const [id, body] of d.texts) bodies.set(id, body);
    for (const g of d.glossary) bodies.set(g.textId, g.definition);
    d.search = { index: new EditionSearch([...bodies].map(([id, body]) => ({ id, body }))), places };
    return d.search;
  }

  /** Every stored edition, by family and date. */
  editions(): EditionInfo[] {
    return (this.st('editions').all() as EditionRowDb[]).map(toEdition);
  }

  /** One edition by id. */
  editionById(id: number): EditionInfo | null {
    const r = this.st('editionById').get({ id }) as EditionRowDb | undefined;
    return r ? toEdition(r) : null;
  }

  /** Editions by id, in the order asked (null where unknown). */
  editionsByIds(ids: readonly number[]): Array<EditionInfo | null> {
    const rows = this.st('editionsByIds').all({ ids: JSON.stringify(ids) }) as EditionRowDb[];
    const byId = new Map(rows.map((r) => [r.id, toEdition(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /**
   * Resolves an edition argument (see EditionResolver): 'latest' (or nothing), an effective
   * date, any other date (the official edition in force that day) or an unofficial label.
   * `exact` says the argument named the edition itself. Null when none applies (editionProblem says why).
   */
  resolveEdition(arg: string | null | undefined, family = 'cr'): { edition: EditionInfo; exact: boolean } | null {
    const r = this.resolution(arg, family);
    return r.problem === undefined ? r : null;
  }

  /** Why an edition argument resolves to no edition, or null when it does. */
  editionProblem(arg: string | null | undefined, family = 'cr'): string | null {
    return this.resolution(arg, family).problem ?? null;
  }

  private resolution(arg: string | null | undefined, family: string): Resolution {
    const key = `${family}\u0000${arg ?? ''}`;
    const known = this.memo ? this.resolved.get(key) : undefined;
    if (known) return known;
    const r = this.resolver.resolve(arg, family);
    const out: Resolution = r.problem === undefined ? { edition: toEdition(r.row), exact: r.exact } : { problem: r.problem };
    if (this.memo) {
      // any date is a key: bounded, oldest out
      if (this.resolved.size >= 4096) this.resolved.delete(this.resolved.keys().next().value!);
      this.resolved.set(key, out);
    }
    return out;
  }

  /** How many rules (sections included) an edition holds. */
  ruleCount(editionId: number): number {
    const d = this.data(editionId);
    if (d) return d.rules.length;
    return this.st('ruleCount').get({ editionId }) as number;
  }

  /** One rule by number in an edition. */
  rule(editionId: number, number: string): RuleRecord | null {
    const d = this.data(editionId);
    if (d) return d.byNumber.get(number) ?? null;
    const r = this.st('ruleByNumber').get({ editionId, number }) as RuleRow | undefined;
    return r ? toRule(r) : null;
  }

  /** Rules by number in an edition, in the order asked (null where missing). */
  rulesByNumbers(editionId: number, numbers: readonly string[]): Array<RuleRecord | null> {
    const d = this.data(editionId);
    if (d) return numbers.map((n) => d.byNumber.get(n) ?? null);
    const rows = this.st('rulesByNumbers').all({ editionId, numbers: JSON.stringify(numbers) }) as RuleRow[];
    const byNumber = new Map(rows.map((r) => [r.number, toRule(r)]));
    return numbers.map((n) => byNumber.get(n) ?? null);
  }

  /** Rules by version id in an edition, in the order asked (null where the edition lacks it). */
  rulesByVersionIds(editionId: number, ids: readonly number[]): Array<RuleRecord | null> {
    const d = this.data(editionId);
    if (d) return ids.map((id) => d.byVersion.get(id) ?? null);
    const rows = this.st('rulesByVersionIds').all({ editionId, ids: JSON.stringify(ids) }) as RuleRow[];
    const byId = new Map(rows.map((r) => [r.versionId, toRule(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** The rules below a rule (subrules at every depth), in document order. */
  descendants(rule: RuleRecord, limit = 2000): RuleRecord[] {
    const inside = new Set([rule.number]);
    const out: RuleRecord[] = [];
    const d = this.data(rule.editionId);
    const at = d?.position.get(rule.versionId);
    if (d && at !== undefined) {
      for (let i = at + 1; i < d.rules.length && out.length < limit; i++) {
        const r = d.rules[i]!;
        if (r.parent === null || !inside.has(r.parent)) break;
        inside.add(r.number);
        out.push(r);
      }
      return out;
    }
    for (const row of this.st('rulesAfter').iterate({ editionId: rule.editionId, ord: rule.ord }) as IterableIterator<RuleRow>) {
      if (row.parent === null || !inside.has(row.parent) || out.length >= limit) break;
      inside.add(row.number);
      out.push(toRule(row));
    }
    return out;
  }

  /** Direct children of several rules of one edition, grouped by parent number, in document order. */
  childrenOf(editionId: number, numbers: readonly string[]): Map<string, RuleRecord[]> {
    const d = this.data(editionId);
    if (d) return new Map(numbers.map((n) => [n, [...(d.children.get(n) ?? [])]]));
    const out = new Map<string, RuleRecord[]>(numbers.map((n) => [n, []]));
    for (const row of this.st('childrenOf').all({ editionId, numbers: JSON.stringify(numbers) }) as RuleRow[]) {
      out.get(row.parent ?? '')?.push(toRule(row));
    }
    return out;
  }

  /** The enclosing rules of a rule, nearest first (parent, grandparent, ...). */
  ancestors(rule: RuleRecord): RuleRecord[] {
    const out: RuleRecord[] = [];
    let parent = rule.parent;
    const seen = new Set<string>();
    while (parent !== null && !seen.has(parent)) {
      seen.add(parent);
      const r = this.rule(rule.editionId, parent);
      if (!r) break;
      out.push(r);
      parent = r.parent;
    }
    return out;
  }

  /** Every rule number of an edition, in document order. */
  numbers(editionId: number): string[] {
    const d = this.data(editionId);
    if (d) return [...d.numbers];
    return this.st('numbers').all({ editionId }) as string[];
  }

  /**
   * A page of rules in document order after position `after` (keyset on ord).
   * `section` keeps one part ("7"), section ("702") or rule ("702.19") with
   * everything below it. Returns up to `limit` rules.
   */
  rulesPage(editionId: number, opts: { section?: string | null; after?: number; limit: number }): RuleRecord[] {
    const section = opts.section ?? null;
    let g1 = '';
    let g2 = '';
    if (section !== null) {
      if (/^\d$/.test(section)) {
        g1 = `${section}[0-9][0-9]`;
        g2 = `${section}[0-9][0-9].*`;
      } else if (/^\d+$/.test(section)) {
        g1 = `${section}.*`;
      } else {
        g1 = `${section}[a-z]*`;
      }
    }
    const rows = this.st('page').all({
      editionId,
      after: opts.after ?? -1,
      all: section === null ? 1 : 0,
      section,
      g1,
      g2,
      limit: opts.limit,
    }) as RuleRow[];
    return rows.map(toRule);
  }

  /** Section rules of an edition ("702" → "Keyword Abilities"). */
  sections(editionId: number): Array<{ number: string; title: string }> {
    return this.st('sectionsByTitle').all({ editionId }) as Array<{ number: string; title: string }>;
  }

  /** Texts by id (examples, definitions), as a map id → body. */
  texts(ids: readonly number[]): Map<number, string> {
    const out = new Map<number, string>();
    let missing: number[] = [...ids];
    // examples of editions held in memory are answered from there
    for (const d of this.editionData.values()) {
      if (missing.length === 0) break;
      missing = missing.filter((id) => {
        const body = d.texts.get(id);
        if (body === undefined) return true;
        out.set(id, body);
        return false;
      });
    }
    if (missing.length > 0) {
      for (const r of this.st('textsByIds').all({ ids: JSON.stringify(missing) }) as Array<{ id: number; body: string }>) {
        out.set(r.id, r.body);
      }
    }
    return out;
  }

  /** Example texts of a rule, in published order. */
  examples(rule: RuleRecord): string[] {
    if (rule.exampleIds.length === 0) return [];
    const m = this.texts(rule.exampleIds);
    return rule.exampleIds.map((id) => m.get(id) ?? '');
  }

  /** Stored references of several texts, grouped by text id, in text order. */
  refsOfTexts(ids: readonly number[]): Map<number, TextRefRecord[]> {
    const out = new Map<number, TextRefRecord[]>(ids.map((id) => [id, []]));
    for (const r of this.st('refsByTextIds').all({ ids: JSON.stringify(ids) }) as TextRefRecord[]) {
      out.get(r.textId)?.push(r);
    }
    return out;
  }

  /** Rules of an edition whose text or examples cite each number, grouped by cited number, in document order. */
  citing(editionId: number, numbers: readonly string[]): Map<string, RuleRecord[]> {
    const out = new Map<string, RuleRecord[]>(numbers.map((n) => [n, []]));
    const rows = this.st('citing').all({ editionId, numbers: JSON.stringify(numbers) }) as Array<
      RuleRow & { citedTarget: string }
    >;
    for (const r of rows) {
      const list = out.get(r.citedTarget);
      if (list && !list.some((x) => x.versionId === r.versionId)) list.push(toRule(r));
    }
    return out;
  }

  /** Glossary entries of an edition citing each number. */
  glossaryCiting(editionId: number, numbers: readonly string[]): Map<string, GlossaryRecord[]> {
    const out = new Map<string, GlossaryRecord[]>(numbers.map((n) => [n, []]));
    const rows = this.st('glossaryCiting').all({ editionId, numbers: JSON.stringify(numbers) }) as Array<
      GlossaryRecord & { citedTarget: string }
    >;
    for (const { citedTarget, ...g } of rows) out.get(citedTarget)?.push(g);
    return out;
  }

  /** A glossary entry by term, case-insensitive (null when the edition has none). */
  glossaryTerm(editionId: number, term: string): GlossaryRecord | null {
    const d = this.data(editionId);
    if (d) {
      // lower() of SQLite folds ASCII only
      const lower = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());
      const t = lower(term.trim());
      return d.glossary.find((g) => lower(g.term) === t) ?? null;
    }
    return (this.st('glossaryTerm').get({ editionId, term: term.trim() }) as GlossaryRecord | undefined) ?? null;
  }

  /** Every glossary entry of an edition, in published order. */
  glossary(editionId: number): GlossaryRecord[] {
    const d = this.data(editionId);
    if (d) return [...d.glossary];
    return this.st('glossaryAll').all({ editionId }) as GlossaryRecord[];
  }

  /** Part headings of an edition. */
  parts(editionId: number): PartRecord[] {
    return this.st('parts').all({ editionId }) as PartRecord[];
  }

  /** Ability words listed by an edition. */
  abilityWords(editionId: number): string[] {
    return this.st('abilityWords').all({ editionId }) as string[];
  }

  /**
   * Keyword abilities and actions of an edition: the rules directly under the
   * sections titled "Keyword Abilities" / "Keyword Actions" (702 and 701 since
   * 2009, other numbers before).
   */
  keywords(editionId: number): KeywordRecord[] {
    const memo = this.keywordMemo.get(editionId);
    if (memo) return memo;
    const out = this.findKeywords(editionId);
    if (this.keywordMemo.size >= 64) this.keywordMemo.delete(this.keywordMemo.keys().next().value!);
    this.keywordMemo.set(editionId, out);
    return out;
  }

  private findKeywords(editionId: number): KeywordRecord[] {
    const secs = this.sections(editionId);
    const out: KeywordRecord[] = [];
    for (const [kind, re] of [
      ['action', /^keyword actions?\b/i],
      ['ability', /^keyword abilit(?:y|ies)\b/i],
    ] as const) {
      const sec = secs.find((s) => re.test(s.title.replace(/_/g, '').trim()));
      if (!sec) continue;
      const children = this.childrenOf(editionId, [sec.number]).get(sec.number) ?? [];
      for (const c of children) {
        // Keyword headers read "Trample" (sometimes with a trailing period or underscores); rules like 702.1 "Most abilities..." are not keywords.
        const name = c.text.replace(/_/g, '').replace(/\.$/, '').trim();
        if (name.length === 0 || name.length > 40 || /[.:;]/.test(name)) continue;
        out.push({ kind, number: c.number, name, editionId });
      }
    }
    return out;
  }

  /**
   * Full-text search within one edition: bm25-ranked hits over rule texts,
   * examples and glossary definitions, with snippet and highlight marks.
   * `text` is user text; it is quoted word by word, never read as FTS syntax.
   * All words must match; when no text has them all, any word may.
   */
  search(
    editionId: number,
    text: string,
    opts: { limit: number; offset?: number; marks?: HighlightMarks; escape?: (text: string) => string },
  ): SearchHitRecord[] {
    let q = searchQuery(text, 'and');
    if (q === null) return [];
    type Hit = {
      textId: number;
      score: number;
      ord: number;
      versionId: number | null;
      exampleIndex: number;
      glossaryVersionId: number | null;
    };
    const offset = opts.offset ?? 0;
    const mem = this.searchOf(editionId);
    const inMemory = (query: SearchQuery, off: number, limit: number): Hit[] => {
      // The best texts only (each has at least one place), and every text tied with the last of them:
      // ties are ordered by document position.
      const matches = mem!.index.ranked(query, off + limit);
      const out: Hit[] = [];
      // only the places of the best texts: enough for the page, plus every text tied with the last one taken
      for (const m of matches) {
        if (out.length >= off + limit && m.score > out[out.length - 1]!.score) break;
        for (const p of mem!.places.get(m.textId) ?? []) out.push({ textId: m.textId, score: m.score, ...p });
      }
      out.sort((a, b) => a.score - b.score || a.ord - b.ord || a.exampleIndex - b.exampleIndex);
      return out.slice(off, off + limit);
    };
    const run = (query: SearchQuery, off: number, limit: number) =>
      mem ? inMemory(query, off, limit) : (this.st('searchRules').all({ editionId, q: query.fts, limit, offset: off }) as Hit[]);
    let hits = run(q, offset, opts.limit);
    const any = searchQuery(text, 'or');
    // the same choice on every page: OR only when no text has all the words
    if (hits.length === 0 && any !== null && any.fts !== q.fts && (offset === 0 || run(q, 0, 1).length === 0)) {
      q = any;
      hits = run(q, offset, opts.limit);
    }
    if (hits.length === 0) return [];
    const wanted = opts.marks ?? { open: '<mark>', close: '</mark>' };
    // With `escape`, texts are marked with private-use characters, escaped, then given the real marks.
    const escape = opts.escape;
    const marks = escape ? { open: '\ue000', close: '\ue001' } : wanted;
    const finish = (m: string): string => (escape ? escape(m).replaceAll('\ue000', wanted.open).replaceAll('\ue001', wanted.close) : m);
    const textIds = [...new Set(hits.map((h) => h.textId))];
    const fts = q;
    // Snippets and highlights are made for the whole page on first use: many callers read neither.
    let markBy: Map<number, { snippet: string; highlighted: string }> | null = null;
    const sqlMarkOf = (textId: number) => {
      if (markBy === null) {
        const rows = this.st('marks').all({ q: fts.fts, ids: JSON.stringify(textIds), ...marks }) as Array<{
          textId: number;
          snippet: string;
          highlighted: string;
        }>;
        markBy = new Map(rows.map((m) => [m.textId, m]));
      }
      return markBy.get(textId);
    };
    const memMarks: { snippet?: Map<number, string>; highlight?: Map<number, string> } = {};
    const markOf = (textId: number, what: 'snippet' | 'highlight'): string => {
      if (!mem) return (what === 'snippet' ? sqlMarkOf(textId)?.snippet : sqlMarkOf(textId)?.highlighted) ?? '';
      const m = (memMarks[what] ??= mem.index.markup(fts, textIds, marks.open, marks.close, what));
      return m.get(textId) ?? '';
    };
    const versionIds = [...new Set(hits.flatMap((h) => (h.versionId === null ? [] : [h.versionId])))];
    const rules = new Map<number, RuleRecord>();
    for (const r of this.rulesByVersionIds(editionId, versionIds)) if (r) rules.set(r.versionId, r);
    const glossIds = [...new Set(hits.flatMap((h) => (h.glossaryVersionId === null ? [] : [h.glossaryVersionId])))];
    const gloss = new Map<number, GlossaryRecord>();
    const dm = this.data(editionId);
    if (dm) for (const id of glossIds) {
      const g = dm.glossaryByVersion.get(id);
      if (g) gloss.set(id, g);
    }
    else if (glossIds.length > 0) {
      for (const g of this.st('glossaryByVersionIds').all({ editionId, ids: JSON.stringify(glossIds) }) as GlossaryRecord[]) {
        gloss.set(g.versionId, g);
      }
    }
    return hits.map((h) => {
      const kind: SearchHitKind = h.glossaryVersionId !== null ? 'glossary' : h.exampleIndex >= 0 ? 'example' : 'rule';
      return {
        kind,
        textId: h.textId,
        score: h.score,
        rule: h.versionId === null ? null : (rules.get(h.versionId) ?? null),
        exampleIndex: h.exampleIndex >= 0 ? h.exampleIndex : null,
        glossary: h.glossaryVersionId === null ? null : (gloss.get(h.glossaryVersionId) ?? null),
        get snippet() {
          return finish(markOf(h.textId, 'snippet'));
        },
        get highlighted() {
          return finish(markOf(h.textId, 'highlight'));
        },
      };
    });
  }
}
