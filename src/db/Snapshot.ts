import type { Statement } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { Reference } from '../core/references.js';
import type { EditionInfo, GlossaryRecord, PartRecord, RuleRecord, TextRefRecord } from '../core/records.js';
import { addWords, wordsOf } from '../core/suggest.js';
import { termKey } from '../core/termKey.js';
import { TextIndex } from './TextIndex.js';
import { TextPlaces } from './TextPlaces.js';
import { lazyStatements } from './lazyStatements.js';
import type { Db } from './openDb.js';

/** A stored rule version: number, text and examples, shared by every edition that holds it. */
export interface VersionRecord {
  id: number;
  number: string;
  kind: string;
  parent: string | null;
  textId: number;
  exampleIds: number[];
  /** The stored JSON array of example ids: equal strings, equal examples. */
  examplesKey: string;
}

/** One edition's rows: version and lineage ids by position; the rest read on first use. */
interface EditionRows {
  info: EditionInfo;
  versions: Int32Array;
  /** Lineage id per position; a rule outside the chain (never aligned) is its own lineage, negative. */
  lineages: Int32Array;
  /** `versions` sorted, with the position of each: membership and position by binary search (built on first use). */
  sorted: SortedVersions | null;
  glossary: Int32Array | null;
  parts: PartRecord[] | null;
  abilityWords: string[] | null;
  numbers: string[] | null;
}

/** A split or merge between an edition and its predecessor, by position. */
interface LinkRow {
  kind: 'split' | 'merge';
  editionId: number;
  pos: number;
  prevEditionId: number;
  prevPos: number;
}

/** A text as the snapshot keeps it while it is read: body, normalized-text hash, references once asked. */
interface TextEntry {
  body: string;
  normHash: number;
  refs: TextRefRecord[] | null;
}

/** The lineage of a rule outside the chain (never aligned): its own, negative, from its edition and position. */
const unaligned = (editionId: number, pos: number): number => -(editionId * 100000 + pos);

/** More than the rules of any edition: a sort key is version id * POSITIONS + position. */
const POSITIONS = 2 ** 20;

/**
 * Bytes of search indexes kept built (TextIndex.bytes: pages and places; resident memory outside the JS heap is
 * about 1.4 times as much), the latest searched editions'. An index also holds its group's other texts
 * (TextIndex): the newest CR's has 1.45 MB of pages, an MTR's or IPG's 0.2 to 0.3 MB; the newest 25 CRs
 * 34 MB (35 MB in bench/scale's 500 editions, whose groups churn more), every edition of the archive
 * 183 MB. 48 MB keeps a load rotating over the latest two years of editions from building an index
 * (70 to 90 ms) on every search.
 */
const SEARCH_INDEX_BYTES = 48 * 1024 * 1024;

/** Editions ranked with the same search statistics: twenty neighbours of a family, in date order from its first. */
const SEARCH_GROUP = 20;

/** Bytes of texts (bodies and references) kept between reads: about the texts of a few editions. */
const TEXT_CACHE_BYTES = 8 * 1024 * 1024;

/** Texts read at once for a diff (prefetchTexts): a few megabytes of the text cache at most; from this many missing. */
const PREFETCH_TEXTS = 3000;
const PREFETCH_FROM = 100;

const EDITION_COLS = `id, family, effective_date AS effectiveDate, official, label, set_code AS setCode,
  set_name AS setName, title`;

const NO_IDS: number[] = [];
const NO_EXAMPLES = '[]';

/** The file whose text an edition stores: its local path, sha256 and provenance (official address, archive place; null when not recorded). */
export interface PrimarySource {
  path: string;
  sha256: string;
  url: string | null;
  archive: string | null;
  official: boolean | null;
  /** As ingest read it: its format (cr-text, docx…), encoding (utf-8, windows-1252…, word) and line endings (crlf, lf…). */
  format: string;
  encoding: string;
  lineEndings: string[];
}

/** The published bytes of a stored text file, gzip-compressed (schema/050_files.sql). */
export interface PublishedBytes {
  size: number;
  gzip: Uint8Array;
}

/**
 * Every rule version, compactly (loadAll: a server): typed arrays by version id, numbers and parents
 * as indexes into one list of distinct numbers, and the inverse indexes (by number, by text, by
 * example text) as sorted arrays. About 30 bytes a version, instead of an object each.
 */
class VersionTable {
  /** Distinct numbers (and parents) in order of first appearance by version id. */
  readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();
  private readonly textId: Int32Array;
  private readonly number: Int32Array;
  /** Index into `names` of the parent, or -1. */
  private readonly parent: Int32Array;
  private readonly kind: Uint8Array;
  private readonly kinds: string[] = [];
  private readonly examples: string[];
  /** Version ids by number (index into names), then id; `byNumberStart[k]` is where number k's start. */
  private readonly byNumber: Int32Array;
  private readonly byNumberStart: Int32Array;
  /** Version ids by text id, in id order: as their rule text, and as one of their examples. */
  private readonly byText: KeyedIds;
  private readonly byExample: KeyedIds;
  private readonly numberCount: number;
  /** Indexes into `names` of version numbers, in order of first appearance as a number (by version id). */
  private readonly numberOrder: number[] = [];

  constructor(rows: Iterable<[number, string, string, string | null, number, string]>, maxId: number) {
    this.textId = new Int32Array(maxId + 1).fill(-1);
    this.number = new Int32Array(maxId + 1).fill(-1);
    this.parent = new Int32Array(maxId + 1).fill(-1);
    this.kind = new Uint8Array(maxId + 1);
    this.examples = new Array<string>(maxId + 1);
    const kindIndex = new Map<string, number>();
    const exampleText: number[] = [];
    const texts: number[] = [];
    const seen = new Set<number>();
    for (const [id, number, kind, parent, textId, examples] of rows) {
      this.textId[id] = textId;
      const n = this.intern(number);
      this.number[id] = n;
      if (!seen.has(n)) {
        seen.add(n);
        this.numberOrder.push(n);
      }
      this.parent[id] = parent === null ? -1 : this.intern(parent);
      let k = kindIndex.get(kind);
      if (k === undefined) {
        kindIndex.set(kind, (k = this.kinds.length));
        this.kinds.push(kind);
      }
      this.kind[id] = k;
      this.examples[id] = examples === NO_EXAMPLES ? NO_EXAMPLES : examples;
      texts.push(textId, id);
      if (examples !== NO_EXAMPLES) for (const x of JSON.parse(examples) as number[]) exampleText.push(x, id);
    }
    this.numberCount = this.names.length;
    // counting sort of version ids by number (ids come in order, so each number's ids stay sorted)
    const count = new Int32Array(this.numberCount + 1);
    for (let id = 0; id <= maxId; id++) if (this.number[id]! >= 0) count[this.number[id]! + 1]!++;
    for (let k = 0; k < this.numberCount; k++) count[k + 1]! += count[k]!;
    this.byNumberStart = count.slice();
    this.byNumber = new Int32Array(count[this.numberCount]!);
    for (let id = 0; id <= maxId; id++) if (this.number[id]! >= 0) this.byNumber[count[this.number[id]!]!++] = id;
    this.byText = keyedIds(texts);
    this.byExample = keyedIds(exampleText);
  }

  private intern(name: string): number {
    let k = this.nameIndex.get(name);
    if (k === undefined) {
      this.nameIndex.set(name, (k = this.names.length));
      this.names.push(name);
    }
    return k;
  }

  has(id: number): boolean {
    return id >= 0 && id < this.textId.length && this.textId[id]! >= 0;
  }

  get(id: number): VersionRecord {
    const examplesKey = this.examples[id]!;
    const p = this.parent[id]!;
    return {
      id,
      number: this.names[this.number[id]!]!,
      kind: this.kinds[this.kind[id]!]!,
      parent: p < 0 ? null : this.names[p]!,
      textId: this.textId[id]!,
      exampleIds: examplesKey === NO_EXAMPLES ? [] : (JSON.parse(examplesKey) as number[]),
      examplesKey,
    };
  }

  numberOf(id: number): string {
    return this.names[this.number[id]!]!;
  }

  kindOf(id: number): string {
    return this.kinds[this.kind[id]!]!;
  }

  textOf(id: number): number {
    return this.textId[id]!;
  }

  /** Example text ids of a version. */
  examplesOf(id: number): number[] {
    const key = this.examples[id]!;
    return key === NO_EXAMPLES ? NO_IDS : (JSON.parse(key) as number[]);
  }

  /** Versions printed with a number, by id: a view of the table's own ids, not a copy (Array.from would walk them through an iterator). */
  withNumber(number: string): ArrayLike<number> {
    const k = this.nameIndex.get(number);
    if (k === undefined || k >= this.numberCount) return NO_IDS;
    return this.byNumber.subarray(this.byNumberStart[k], this.byNumberStart[k + 1]);
  }

  /** Every number a version has, in order of first appearance (by version id). */
  allNumbers(): string[] {
    return this.numberOrder.map((k) => this.names[k]!);
  }

  /** The versions whose text (or one of whose examples) is a text that an edition holds (`sorted`: its sortedOf), as their positions in it, by version id. */
  positionsUsing(textId: number, as: 'text' | 'example', sorted: SortedVersions): number[] {
    const { start, ids } = as === 'text' ? this.byText : this.byExample;
    const out: number[] = [];
    if (textId < 0 || textId + 1 >= start.length) return out;
    for (let k = start[textId]!, end = start[textId + 1]!; k < end; k++) {
      const p = positionIn(sorted, ids[k]!);
      if (p >= 0) out.push(p);
    }
    return out;
  }
}

/** The rows of rule versions from their columns as JSON arrays (id, number, kind, parent, text id, examples). */
function* versionRows(columns: string[]): Generator<[number, string, string, string | null, number, string]> {
  const [ids, numbers, kinds, parents, texts, examples] = columns.map((c) => JSON.parse(c) as unknown[]) as [
    number[],
    string[],
    string[],
    Array<string | null>,
    number[],
    string[],
  ];
  for (let k = 0; k < ids.length; k++) yield [ids[k]!, numbers[k]!, kinds[k]!, parents[k]!, texts[k]!, examples[k]!];
}

/** The end (exclusive) of a rule and the rules below it in an edition's numbers: the run that extends its number; `pos` when there is no rule there. */
function subtreeEnd(numbers: readonly string[], pos: number): number {
  const own = numbers[pos];
  if (own === undefined) return pos;
  let k = pos + 1;
  while (k < numbers.length && numbers[k]!.startsWith(own)) k++;
  return k;
}

/** Values by key (compressed rows: a key's values are ids[start[key]] to ids[start[key + 1]]), each key's in ascending order. */
interface KeyedIds {
  start: Int32Array;
  ids: Int32Array;
}

/** KeyedIds of [key, value, key, value…] (keys small non-negative integers: text ids): a key's values in two reads, not a binary search. */
function keyedIds(flat: number[]): KeyedIds {
  let keys = 0;
  for (let k = 0; k < flat.length; k += 2) keys = Math.max(keys, flat[k]! + 1);
  const start = new Int32Array(keys + 1);
  for (let k = 0; k < flat.length; k += 2) start[flat[k]! + 1]!++;
  for (let key = 0; key < keys; key++) start[key + 1]! += start[key]!;
  const ids = new Int32Array(flat.length / 2);
  const next = start.slice(0, keys);
  for (let k = 0; k < flat.length; k += 2) ids[next[flat[k]!]!++] = flat[k + 1]!;
  // (the rows come by version id: each key's ids are in order already, unless a caller gives them otherwise)
  for (let key = 0; key < keys; key++) {
    for (let k = start[key]! + 1; k < start[key + 1]!; k++) {
      if (ids[k]! < ids[k - 1]!) {
        ids.subarray(start[key], start[key + 1]).sort();
        break;
      }
    }
  }
  return { start, ids };
}

/** An edition's rule versions sorted by id, with the position of each (binary search: membership and position). */
interface SortedVersions {
  versions: Int32Array;
  positions: Int32Array;
}

/** The position of a version in an edition (its SortedVersions), or -1. */
function positionIn(sorted: SortedVersions, versionId: number): number {
  const s = sorted.versions;
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! < versionId) lo = mid + 1;
    else hi = mid;
  }
  return lo < s.length && s[lo] === versionId ? sorted.positions[lo]! : -1;
}

/**
 * The query layer's one read path over the database. What it reads is read on first use and kept
 * compact: the list of editions at once; an edition's rule ids (typed arrays) when it is first read;
 * rule versions one by one from SQLite (a command) or, after loadAll (a server), all of them in
 * typed arrays (VersionTable); texts and their references from SQLite, the latest read kept in a
 * cache bounded in bytes. Memory then grows with the editions' id arrays (a few bytes a rule), not
 * with every text of the archive, and a command reads only what it answers with. Full-text search
 * is SQLite's FTS5 over an edition's texts, ranked with its search group's (TextIndex), in memory,
 * built on the edition's first search.
 */
export class Snapshot {
  readonly editions: EditionInfo[];
  private readonly infoById: Map<number, EditionInfo>;
  private readonly rows = new Map<number, EditionRows>();
  private readonly sql: (name: string) => Statement;
  private readonly textCache: LRUCache<number, TextEntry>;
  /** Every rule version (loadAll), or null: versions are then read one by one into `versionCache`. */
  private versionTable: VersionTable | null = null;
  private readonly versionCache = new Map<number, VersionRecord>();
  private glossaryTable: {
    versions: Map<number, { term: string; textId: number }>;
    /** Glossary versions by term folded (termKey). */
    byTerm: Map<string, number[]>;
    /** Glossary versions by definition text id. */
    byText: KeyedIds;
  } | null = null;
  private links: LinkRow[] | null = null;
  /** linkPlaces of a loaded snapshot (loadAll), made on first use: every history asks for them. */
  private linkPlaceRows: ReturnType<Snapshot['linkPlaces']> | null = null;
  /** The published-bytes statement, prepared on first use (null: no such table). */
  private published: Statement | null | undefined;
  private readonly files = new Map<number, { files: number; primary: PrimarySource | null }>();
  /** Rulings Summaries notes by edition, then section, in published order (text ids). */
  private readonly notes = new Map<number, Map<string, number[]>>();
  /** Built search indexes by edition, least recently searched first (SEARCH_INDEX_BYTES in all at most, and the latest). */
  private readonly searchIndexes = new Map<number, TextIndex>();
  /** Each edition's search group (SEARCH_GROUP): the editions whose texts give its ranking statistics. */
  private readonly searchGroups = new Map<number, readonly number[]>();
  private allWords: Set<string> | null = null;

  /** `textCacheBytes`: bytes of texts kept between reads (default TEXT_CACHE_BYTES). */
  constructor(
    readonly db: Db,
    textCacheBytes = TEXT_CACHE_BYTES,
  ) {
    this.textCache = new LRUCache<number, TextEntry>({
      maxSize: textCacheBytes,
      sizeCalculation: (t) => 64 + 2 * t.body.length + (t.refs ? 48 * t.refs.length : 0),
    });
    this.editions = (
      db.prepare(`SELECT ${EDITION_COLS} FROM editions ORDER BY family, effective_date, label`).all() as Array<
        Omit<EditionInfo, 'official'> & { official: number }
      >
    ).map((e) => ({ ...e, family: e.family, official: e.official === 1 }));
    this.infoById = new Map(this.editions.map((e) => [e.id, e]));
    for (const family of new Set(this.editions.map((e) => e.family))) {
      const chain = this.editions.filter((e) => e.family === family).map((e) => e.id);
      for (let k = 0; k < chain.length; k += SEARCH_GROUP) {
        const group = chain.slice(k, k + SEARCH_GROUP);
        for (const id of group) this.searchGroups.set(id, group);
      }
    }
    this.sql = lazyStatements({
      // One row per edition, ids as JSON arrays (parsed natively) rather than a JS row per rule.
      editionRules: () =>
        db
          .prepare(
            `SELECT json_group_array(version_id), json_group_array(coalesce(lineage_id, 0))
             FROM (SELECT version_id, lineage_id FROM edition_rules WHERE edition_id = ? ORDER BY ord)`,
          )
          .raw(true),
      editionNumbers: () =>
        db
          .prepare(
            `SELECT json_group_array(v.number) FROM (SELECT v.number FROM edition_rules r JOIN rule_versions v ON v.id = r.version_id
             WHERE r.edition_id = ? ORDER BY r.ord) v`,
          )
          .pluck(),
      editionGlossary: () =>
        db.prepare('SELECT json_group_array(version_id) FROM (SELECT version_id FROM edition_glossary WHERE edition_id = ? ORDER BY ord)').pluck(),
      parts: () => db.prepare('SELECT number, title FROM edition_parts WHERE edition_id = ? ORDER BY ord').raw(true),
      abilityWords: () => db.prepare('SELECT word FROM ability_words WHERE edition_id = ? ORDER BY ord').pluck(),
      text: () => db.prepare('SELECT body, norm_h FROM texts WHERE id = ?').raw(true),
      body: () => db.prepare('SELECT body FROM texts WHERE id = ?').pluck(),
      bodies: () => db.prepare('SELECT body FROM texts ORDER BY id').pluck(),
      bodiesAfter: () => db.prepare('SELECT id, body FROM texts WHERE id > ? ORDER BY id LIMIT ?').raw(true),
      refs: () => db.prepare('SELECT text_id, ord, target, kind, start, "end" FROM text_refs WHERE text_id = ? ORDER BY ord').raw(true),
      // texts and their references by a JSON array of ids (a diff's changed rules: one query, not two a text)
      textsIn: () => db.prepare('SELECT id, body, norm_h FROM texts WHERE id IN (SELECT value FROM json_each(?))').raw(true),
      refsIn: () =>
        db
          .prepare('SELECT text_id, ord, target, kind, start, "end" FROM text_refs WHERE text_id IN (SELECT value FROM json_each(?)) ORDER BY text_id, ord')
          .raw(true),
      // the texts some edition of a list shows (rule texts, examples, glossary definitions), ascending
      textsShown: () =>
        db
          .prepare(
            `WITH e(id) AS (SELECT value FROM json_each(@editions)),
               v AS (SELECT DISTINCT r.version_id AS id FROM edition_rules r JOIN e ON r.edition_id = e.id)
             SELECT text_id FROM rule_versions WHERE id IN (SELECT id FROM v)
             UNION SELECT x.value FROM rule_versions, json_each(rule_versions.examples) x WHERE rule_versions.id IN (SELECT id FROM v) AND examples <> '[]'
             UNION SELECT g.text_id FROM edition_glossary eg JOIN e ON eg.edition_id = e.id JOIN glossary_versions g ON g.id = eg.version_id
             ORDER BY 1`,
          )
          .pluck(),
      citing: () => db.prepare('SELECT DISTINCT text_id FROM text_refs WHERE target = ? ORDER BY text_id').pluck(),
      version: () => db.prepare('SELECT id, number, kind, parent, text_id, examples FROM rule_versions WHERE id = ?').raw(true),
      // one row of JSON arrays, parsed natively: a row object per version costs twice as much (a server's start)
      versionColumns: () =>
        db
          .prepare(
            `SELECT json_group_array(id), json_group_array(number), json_group_array(kind), json_group_array(parent),
               json_group_array(text_id), json_group_array(examples) FROM (SELECT * FROM rule_versions ORDER BY id)`,
          )
          .raw(true),
      maxVersion: () => db.prepare('SELECT coalesce(max(id), 0) FROM rule_versions').pluck(),
      withNumber: () => db.prepare('SELECT id FROM rule_versions WHERE number = ? ORDER BY id').pluck(),
      allNumbers: () => db.prepare('SELECT number FROM rule_versions GROUP BY number ORDER BY min(id)').pluck(),
      usingText: () => db.prepare('SELECT id FROM rule_versions WHERE text_id = ? ORDER BY id').pluck(),
      usingExample: () =>
        db.prepare(`SELECT v.id FROM rule_versions v, json_each(v.examples) x WHERE v.examples != '[]' AND x.value = ? GROUP BY v.id ORDER BY v.id`).pluck(),
      glossaryVersions: () => db.prepare('SELECT id, term, text_id FROM glossary_versions').raw(true),
      links: () =>
        db.prepare(
          `SELECT kind, edition_id AS editionId, ord AS pos, prev_edition_id AS prevEditionId, prev_ord AS prevPos
           FROM lineage_links ORDER BY edition_id, ord`,
        ),
      // one text of "edition:ord" pairs: a row per place costs better-sqlite3 a JS array each (5x the time of the read)
      lineagePlaces: () => db.prepare(`SELECT group_concat(edition_id || ':' || ord) FROM edition_rules WHERE lineage_id = ?`).pluck(),
      // single rows of an edition not read whole (a command): a rule, the rules of a number, a subtree
      ruleAtPos: () => db.prepare('SELECT version_id, coalesce(lineage_id, 0) FROM edition_rules WHERE edition_id = ? AND ord = ?').raw(true),
      positionsOfNumber: () =>
        db
          .prepare('SELECT r.ord FROM rule_versions v JOIN edition_rules r ON r.version_id = v.id AND r.edition_id = ? WHERE v.number = ? ORDER BY r.ord')
          .pluck(),
      rulesFrom: () =>
        db
          .prepare(
            `SELECT r.version_id, coalesce(r.lineage_id, 0), v.number FROM edition_rules r JOIN rule_versions v ON v.id = r.version_id
             WHERE r.edition_id = ? AND r.ord >= ? ORDER BY r.ord`,
          )
          .raw(true),
      numberOfLineage: () =>
        db
          .prepare(
            `SELECT v.number FROM edition_rules r JOIN rule_versions v ON v.id = r.version_id
             WHERE r.edition_id = ? AND r.lineage_id = ? ORDER BY r.ord LIMIT 1`,
          )
          .pluck(),
      linkPlaces: () =>
        db
          .prepare(
            `SELECT l.kind, l.edition_id, l.ord, l.prev_edition_id, l.prev_ord, coalesce(a.lineage_id, 0), coalesce(b.lineage_id, 0), va.number, vb.number
             FROM lineage_links l
               JOIN edition_rules a ON a.edition_id = l.edition_id AND a.ord = l.ord JOIN rule_versions va ON va.id = a.version_id
               JOIN edition_rules b ON b.edition_id = l.prev_edition_id AND b.ord = l.prev_ord JOIN rule_versions vb ON vb.id = b.version_id
             ORDER BY l.edition_id, l.ord`,
          )
          .raw(true),
      editionGlossaryTerms: () =>
        db
          .prepare(
            `SELECT g.term, g.text_id FROM edition_glossary e JOIN glossary_versions g ON g.id = e.version_id
             WHERE e.edition_id = ? ORDER BY e.ord`,
          )
          .raw(true),
      hasNotes: () => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'edition_notes'`).pluck(),
      notes: () => db.prepare('SELECT section, text_id FROM edition_notes WHERE edition_id = ? ORDER BY ord').raw(true),
      files: () =>
        db
          .prepare(
            `SELECT (SELECT count(*) FROM source_files f WHERE f.edition_id = e.id), p.path, p.sha256,
                    json_extract(p.report, '$.provenance.url'), json_extract(p.report, '$.provenance.archive'), json_extract(p.report, '$.provenance.official'),
                     p.format, p.encoding, p.line_endings
             FROM editions e LEFT JOIN source_files p ON p.id = e.primary_file_id WHERE e.id = ?`,
          )
          .raw(true),
    });
  }

  // An edition's rows are read on its first use: a command that reads one edition (the CLI) loads
  // one, and a server loads them all at start (KnowledgeBase.warm).
  private edition(editionId: number): EditionRows {
    const cached = this.rows.get(editionId);
    if (cached) return cached;
    const info = this.infoById.get(editionId);
    if (!info) throw new Error(`no edition ${editionId} in the snapshot`);
    const [v, l] = this.sql('editionRules').get(editionId) as [string, string];
    const versions = Int32Array.from(JSON.parse(v) as number[]);
    const lineages = Int32Array.from(JSON.parse(l) as number[]);
    for (let k = 0; k < lineages.length; k++) if (lineages[k] === 0) lineages[k] = unaligned(info.id, k);
    const rows: EditionRows = { info, versions, lineages, sorted: null, glossary: null, parts: null, abilityWords: null, numbers: null };
    this.rows.set(editionId, rows);
    return rows;
  }

  private glossaryOf(e: EditionRows): Int32Array {
    return (e.glossary ??= Int32Array.from(JSON.parse(this.sql('editionGlossary').get(e.info.id) as string) as number[]));
  }

  private sortedOf(e: EditionRows): SortedVersions {
    if (e.sorted) return e.sorted;
    // one key a rule, version id then position, sorted natively (a comparator costs about 1 ms an edition)
    const v = e.versions;
    const keys = new Float64Array(v.length);
    for (let k = 0; k < v.length; k++) keys[k] = v[k]! * POSITIONS + k;
    keys.sort();
    const versions = new Int32Array(v.length);
    const positions = new Int32Array(v.length);
    for (let k = 0; k < keys.length; k++) {
      versions[k] = Math.floor(keys[k]! / POSITIONS);
      positions[k] = keys[k]! % POSITIONS;
    }
    return (e.sorted = { versions, positions });
  }

  private textEntry(id: number): TextEntry | undefined {
    let t = this.textCache.get(id);
    if (t === undefined) {
      const row = this.sql('text').get(id) as [string, number] | undefined;
      if (row === undefined) return undefined;
      t = { body: row[0], normHash: row[1], refs: null };
      this.textCache.set(id, t);
    }
    return t;
  }

  private glossaryTables(): NonNullable<Snapshot['glossaryTable']> {
    if (this.glossaryTable) return this.glossaryTable;
    const versions = new Map<number, { term: string; textId: number }>();
    const byTerm = new Map<string, number[]>();
    const textVersions: number[] = [];
    for (const [id, term, textId] of this.sql('glossaryVersions').iterate() as IterableIterator<[number, string, number]>) {
      versions.set(id, { term, textId });
      textVersions.push(textId, id);
      const key = termKey(term);
      const same = byTerm.get(key);
      if (same) same.push(id);
      else byTerm.set(key, [id]);
    }
    return (this.glossaryTable = { versions, byTerm, byText: keyedIds(textVersions) });
  }

  /** The newest edition of each family (what a search is of unless it names another). */
  newestEditions(): EditionInfo[] {
    const out = new Map<string, EditionInfo>();
    for (const e of this.editions) if (e.official || !out.has(e.family)) out.set(e.family, e);
    return [...out.values()];
  }

  /**
   * Reads every rule version now, and the rows of the `newest` newest editions (a server, so that no
   * request pays for them); the other editions' rows are read on first use, or by editionsInBackground.
   */
  loadAll(newest = Infinity): void {
    this.versionTable ??= new VersionTable(versionRows(this.sql('versionColumns').get() as string[]), this.sql('maxVersion').get() as number);
    this.versionCache.clear();
    this.glossaryTables();
    for (const info of this.byDate().slice(-newest)) this.sortedOf(this.edition(info.id));
  }

  /**
   * Reads the rows of every edition not read yet, newest first, a few at a time between other work (a
   * server's first seconds): start-up reads only the newest editions, and no request waits for the rest.
   */
  editionsInBackground(slice = 16): Promise<void> {
    const todo = this.byDate().reverse();
    return new Promise((resolve) => {
      const step = (): void => {
        if (!this.db.open) return resolve();
        for (let n = 0; n < slice && todo.length > 0; n++) this.sortedOf(this.edition(todo.shift()!.id));
        if (todo.length === 0) return resolve();
        setImmediate(step);
      };
      setImmediate(step);
    });
  }

  /** The editions, oldest first (by date, then as listed). */
  private byDate(): EditionInfo[] {
    return this.editions
      .map((e, k) => ({ e, k }))
      .sort((a, b) => (a.e.effectiveDate < b.e.effectiveDate ? -1 : a.e.effectiveDate > b.e.effectiveDate ? 1 : a.k - b.k))
      .map((x) => x.e);
  }

  /** An edition by id. */
  editionById(editionId: number): EditionInfo | null {
    return this.infoById.get(editionId) ?? null;
  }

  /**
   * The published bytes of a stored text file by sha256 (gzip); null when none is stored, undefined when the
   * database was written before they were (no source_bytes table).
   */
  publishedBytes(sha256: string): PublishedBytes | null | undefined {
    if (this.published === undefined) {
      const has = this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'source_bytes'`).get();
      this.published = has ? this.db.prepare('SELECT size, gzip FROM source_bytes WHERE sha256 = ?') : null;
    }
    if (this.published === null) return undefined;
    return (this.published.get(sha256) as PublishedBytes | undefined) ?? null;
  }

  /** How many source files an edition was read from, and the one whose text is stored. */
  sourcesOf(editionId: number): { files: number; primary: PrimarySource | null } {
    let f = this.files.get(editionId);
    if (!f) {
      type FileRow = [number, string | null, string | null, string | null, string | null, number | null, string, string, string];
      const row = this.sql('files').get(editionId) as FileRow | undefined;
      if (!row) return { files: 0, primary: null };
      const [n, path, sha256, url, archive, official, format, encoding, lineEndings] = row;
      f = {
        files: n,
        primary:
          path === null || sha256 === null
            ? null
            : {
                path,
                sha256,
                url,
                archive,
                official: official === null ? null : official === 1,
                format,
                encoding,
                lineEndings: lineEndings.split(',').filter(Boolean),
              },
      };
      this.files.set(editionId, f);
    }
    return f;
  }

  /** Number of rules of an edition. */
  ruleCount(editionId: number): number {
    return this.edition(editionId).versions.length;
  }

  /** The rule at a position of an edition's document order. */
  ruleAt(editionId: number, pos: number): RuleRecord | null {
    const at = this.idsAt(editionId, pos);
    if (at === null) return null;
    const [id, lineage] = at;
    const v = this.version(id);
    return {
      editionId,
      ord: pos,
      versionId: id,
      number: v.number,
      kind: v.kind,
      parent: v.parent,
      textId: v.textId,
      text: this.text(v.textId),
      exampleIds: v.exampleIds,
      lineageId: lineage < 0 ? null : lineage,
    };
  }

  /** The number and kind of the rule at a position of an edition's document order (its text unread), or null. */
  headAt(editionId: number, pos: number): { number: string; kind: string } | null {
    const id = this.edition(editionId).versions[pos];
    if (id === undefined) return null;
    const t = this.versionTable;
    if (t) return { number: t.numberOf(id), kind: t.kindOf(id) };
    const v = this.version(id);
    return { number: v.number, kind: v.kind };
  }

  /**
   * Whether an edition's rules are to be read from its arrays: a server (loadAll) or an edition read
   * whole already. Otherwise (a command that reads a rule here and there: history) rows are read one
   * by one from SQLite, not the whole edition for one of its rules.
   */
  private readWhole(editionId: number): boolean {
    return this.versionTable !== null || this.rows.has(editionId);
  }

  /** Version id and lineage (negative: never aligned) of the rule at a position, or null. */
  private idsAt(editionId: number, pos: number): [versionId: number, lineage: number] | null {
    if (this.readWhole(editionId)) {
      const e = this.edition(editionId);
      const id = e.versions[pos];
      return id === undefined ? null : [id, e.lineages[pos]!];
    }
    if (!this.infoById.has(editionId)) throw new Error(`no edition ${editionId} in the snapshot`);
    const row = this.sql('ruleAtPos').get(editionId, pos) as [number, number] | undefined;
    return row === undefined ? null : [row[0], row[1] === 0 ? unaligned(editionId, pos) : row[1]];
  }

  /** The lineage id of the rule at a position (negative for a rule never aligned), or null. */
  lineageAt(editionId: number, pos: number): number | null {
    return this.idsAt(editionId, pos)?.[1] ?? null;
  }

  /** Positions of an edition's rules printed with a number, in document order. */
  private positionsOfNumber(editionId: number, number: string): number[] {
    if (!this.readWhole(editionId)) {
      if (!this.infoById.has(editionId)) throw new Error(`no edition ${editionId} in the snapshot`);
      return this.sql('positionsOfNumber').all(editionId, number) as number[];
    }
    const positions: number[] = [];
    const ids = this.versionsWithNumber(number);
    for (let k = 0; k < ids.length; k++) {
      const p = this.positionOf(editionId, ids[k]!);
      if (p >= 0) positions.push(p);
    }
    return positions.sort((x, y) => x - y);
  }

  /**
   * A rule and the rules below it (its subrules at every depth: the rules right after it whose number
   * extends its own), from its position: index 0 is the rule itself.
   */
  subtree(editionId: number, pos: number): { versions: number[]; lineages: number[]; numbers: string[] } {
    const out = { versions: [] as number[], lineages: [] as number[], numbers: [] as string[] };
    if (this.readWhole(editionId)) {
      const e = this.edition(editionId);
      const numbers = this.numbers(editionId);
      for (let k = pos, end = subtreeEnd(numbers, pos); k < end; k++) {
        out.versions.push(e.versions[k]!);
        out.lineages.push(e.lineages[k]!);
        out.numbers.push(numbers[k]!);
      }
      return out;
    }
    let own: string | undefined;
    for (const [version, lineage, number] of this.sql('rulesFrom').iterate(editionId, pos) as IterableIterator<[number, number, string]>) {
      if (own === undefined) own = number;
      else if (!number.startsWith(own)) break;
      out.versions.push(version);
      out.lineages.push(lineage === 0 ? unaligned(editionId, pos + out.lineages.length) : lineage);
      out.numbers.push(number);
    }
    return out;
  }

  /**
   * Whether the rules below two rules (subtree, from index 1) are the same versions of the same lineages,
   * compared in place in the editions' arrays (a rule's history asks this of each of its ~100 steps).
   */
  sameSubtree(editionA: number, posA: number, editionB: number, posB: number): boolean {
    if (!this.readWhole(editionA) || !this.readWhole(editionB)) {
      const a = this.subtree(editionA, posA);
      const b = this.subtree(editionB, posB);
      return a.versions.length === b.versions.length && a.versions.every((v, k) => k === 0 || (v === b.versions[k] && a.lineages[k] === b.lineages[k]));
    }
    const a = this.edition(editionA);
    const b = this.edition(editionB);
    const n = subtreeEnd(this.numbers(editionA), posA) - posA;
    if (subtreeEnd(this.numbers(editionB), posB) - posB !== n) return false;
    for (let k = 1; k < n; k++) if (a.versions[posA + k] !== b.versions[posB + k] || a.lineages[posA + k] !== b.lineages[posB + k]) return false;
    return true;
  }

  /** The number of a lineage's first rule in an edition, or undefined when the edition has none. */
  numberOfLineage(editionId: number, lineage: number): string | undefined {
    if (this.readWhole(editionId)) {
      const pos = this.edition(editionId).lineages.indexOf(lineage);
      return pos < 0 ? undefined : this.numbers(editionId)[pos];
    }
    // (a negative lineage is a position's own: it is nowhere else)
    if (lineage <= 0) return undefined;
    return (this.sql('numberOfLineage').get(editionId, lineage) as string | undefined) ?? undefined;
  }

  /** Every split and merge between editions with the lineages and numbers of both rules, by edition then position. */
  linkPlaces(): Array<LinkRow & { lineage: number; prevLineage: number; number: string; prevNumber: string }> {
    if (this.versionTable !== null)
      return (this.linkPlaceRows ??= this.lineageLinks().map((l) => ({
        ...l,
        lineage: this.edition(l.editionId).lineages[l.pos]!,
        prevLineage: this.edition(l.prevEditionId).lineages[l.prevPos]!,
        number: this.numbers(l.editionId)[l.pos]!,
        prevNumber: this.numbers(l.prevEditionId)[l.prevPos]!,
      })));
    type Row = [LinkRow['kind'], number, number, number, number, number, number, string, string];
    return (this.sql('linkPlaces').all() as Row[]).map(([kind, editionId, pos, prevEditionId, prevPos, a, b, number, prevNumber]) => ({
      kind,
      editionId,
      pos,
      prevEditionId,
      prevPos,
      lineage: a === 0 ? unaligned(editionId, pos) : a,
      prevLineage: b === 0 ? unaligned(prevEditionId, prevPos) : b,
      number,
      prevNumber,
    }));
  }

  /** Position of a rule version in an edition, or -1. */
  positionOf(editionId: number, versionId: number): number {
    return positionIn(this.sortedOf(this.edition(editionId)), versionId);
  }

  /** Rule versions printed with a number, by id. */
  private versionsWithNumber(number: string): ArrayLike<number> {
    return this.versionTable ? this.versionTable.withNumber(number) : (this.sql('withNumber').all(number) as number[]);
  }

  /** A rule by number in an edition (the first, should a source number two rules alike). */
  ruleByNumber(editionId: number, number: string): RuleRecord | null {
    const best = this.positionOfNumber(editionId, number);
    return best < 0 ? null : this.ruleAt(editionId, best);
  }

  /** Position of a rule number in an edition (the first, should a source number two rules alike), or -1. */
  positionOfNumber(editionId: number, number: string): number {
    return this.positionsOfNumber(editionId, number)[0] ?? -1;
  }

  /** Every rule of an edition printed with a number, in document order (two when a source prints a number twice). */
  rulesByNumber(editionId: number, number: string): RuleRecord[] {
    return this.positionsOfNumber(editionId, number).flatMap((p) => this.ruleAt(editionId, p) ?? []);
  }

  /** Every rule number of an edition, in document order. */
  numbers(editionId: number): string[] {
    const e = this.edition(editionId);
    if (e.numbers === null) {
      const t = this.versionTable;
      if (t) {
        // (a loop rather than Array.from, which walks a typed array through an iterator)
        const numbers = new Array<string>(e.versions.length);
        for (let k = 0; k < numbers.length; k++) numbers[k] = t.numberOf(e.versions[k]!);
        e.numbers = numbers;
      } else e.numbers = JSON.parse(this.sql('editionNumbers').get(editionId) as string) as string[];
    }
    return e.numbers;
  }

  /** Lineage ids, version ids and numbers of an edition's rules, in document order (what the differ pairs). */
  ruleIds(editionId: number): { lineages: Int32Array; versions: Int32Array; numbers: string[] } {
    const e = this.edition(editionId);
    return { lineages: e.lineages, versions: e.versions, numbers: this.numbers(editionId) };
  }

  /** A rule version by id. */
  version(id: number): VersionRecord {
    const t = this.versionTable;
    if (t) {
      if (!t.has(id)) throw new Error(`no rule version ${id} in the snapshot`);
      return t.get(id);
    }
    let v = this.versionCache.get(id);
    if (!v) {
      const row = this.sql('version').get(id) as [number, string, string, string | null, number, string] | undefined;
      if (!row) throw new Error(`no rule version ${id} in the snapshot`);
      const [, number, kind, parent, textId, examples] = row;
      v = { id, number, kind, parent, textId, exampleIds: examples === NO_EXAMPLES ? [] : (JSON.parse(examples) as number[]), examplesKey: examples };
      this.versionCache.set(id, v);
    }
    return v;
  }

  /** A text by id ('' when unknown). */
  text(id: number): string {
    return this.textEntry(id)?.body ?? '';
  }

  /** Texts by id. */
  texts(ids: Iterable<number>): Map<number, string> {
    const out = new Map<number, string>();
    for (const id of ids) {
      const t = this.textEntry(id);
      if (t !== undefined) out.set(id, t.body);
    }
    return out;
  }

  /** A text with its stored references and normalized-text hash, as the differ compares it. */
  diffText(id: number): { text: string; refs: Reference[]; normHash: number } {
    const t = this.textEntry(id);
    return t ? { text: t.body, refs: this.refsOfText(id), normHash: t.normHash } : { text: '', refs: [], normHash: 0 };
  }

  /**
   * Reads into the text cache, in two queries, the texts (with their references) of `ids` not kept yet: a
   * diff's changed rules, read one by one otherwise (two statements a text). At most PREFETCH_TEXTS, the
   * first: more would evict one another before they are read; none under PREFETCH_FROM.
   */
  prefetchTexts(ids: readonly number[]): void {
    const missing = [...new Set(ids)].filter((id) => !this.textCache.has(id)).slice(0, PREFETCH_TEXTS);
    // (a few are read faster one by one than the two statements are prepared in a fresh process)
    if (missing.length < PREFETCH_FROM) return;
    const json = JSON.stringify(missing);
    const refs = new Map<number, TextRefRecord[]>();
    for (const [textId, ord, target, kind, start, end] of this.sql('refsIn').iterate(json) as IterableIterator<
      [number, number, string, TextRefRecord['kind'], number, number]
    >) {
      const l = refs.get(textId);
      const r = { textId, ord, target, kind, start, end };
      if (l) l.push(r);
      else refs.set(textId, [r]);
    }
    for (const [id, body, normHash] of this.sql('textsIn').iterate(json) as IterableIterator<[number, string, number]>)
      this.textCache.set(id, { body, normHash, refs: refs.get(id) ?? [] });
  }

  /** Stored references of a text, in text order. */
  refsOfText(textId: number): TextRefRecord[] {
    const t = this.textEntry(textId);
    if (!t) return [];
    if (t.refs === null) {
      t.refs = (this.sql('refs').all(textId) as Array<[number, number, string, TextRefRecord['kind'], number, number]>).map(
        ([textId, ord, target, kind, start, end]) => ({ textId, ord, target, kind, start, end }),
      );
      // (re-set: the entry's size has grown)
      this.textCache.set(textId, t);
    }
    return t.refs;
  }

  /** Texts that cite a number (rule texts, examples, definitions of any edition). */
  textsCitingNumber(number: string): readonly number[] {
    return this.sql('citing').all(number) as number[];
  }

  /** Positions of an edition's rules whose text is `textId` (asText) or whose examples hold it. */
  positionsUsingText(editionId: number, textId: number, as: 'text' | 'example'): number[] {
    const sorted = this.sortedOf(this.edition(editionId));
    // (a search asks for two dozen texts' places: no array of versions in between)
    if (this.versionTable) return this.versionTable.positionsUsing(textId, as, sorted);
    const out: number[] = [];
    for (const id of this.sql(as === 'text' ? 'usingText' : 'usingExample').all(textId) as number[]) {
      const p = positionIn(sorted, id);
      if (p >= 0) out.push(p);
    }
    return out;
  }

  /** The glossary of an edition, in published order. */
  glossary(editionId: number): GlossaryRecord[] {
    const e = this.edition(editionId);
    return Array.from(this.glossaryOf(e), (id, ord) => this.glossaryRecord(editionId, ord, id));
  }

  /** An edition's glossary entry for a term (the same term: see termKey), or null. */
  glossaryEntry(editionId: number, term: string): GlossaryRecord | null {
    const ids = this.glossaryTables().byTerm.get(termKey(term));
    if (!ids) return null;
    const g = this.glossaryOf(this.edition(editionId));
    let best: GlossaryRecord | null = null;
    for (const id of ids) {
      const ord = g.indexOf(id);
      if (ord >= 0 && (best === null || ord < best.ord)) best = this.glossaryRecord(editionId, ord, id);
    }
    return best;
  }

  /** Glossary entries of an edition defined by a text. */
  glossaryUsingText(editionId: number, textId: number): GlossaryRecord[] {
    const { start, ids } = this.glossaryTables().byText;
    // (most texts define nothing: two reads say so)
    if (textId < 0 || textId + 1 >= start.length || start[textId] === start[textId + 1]) return [];
    const g = this.glossaryOf(this.edition(editionId));
    const out: GlossaryRecord[] = [];
    // a text defines a handful of versions: find each (native scans) rather than walk the glossary
    for (let k = start[textId]!; k < start[textId + 1]!; k++) {
      const id = ids[k]!;
      for (let ord = g.indexOf(id); ord >= 0; ord = g.indexOf(id, ord + 1)) out.push(this.glossaryRecord(editionId, ord, id));
    }
    return out.sort((x, y) => x.ord - y.ord);
  }

  /** An edition's glossary entry at a place of its published order, or null. */
  glossaryAt(editionId: number, ord: number): GlossaryRecord | null {
    const id = this.glossaryOf(this.edition(editionId))[ord];
    return id === undefined ? null : this.glossaryRecord(editionId, ord, id);
  }

  private glossaryRecord(editionId: number, ord: number, versionId: number): GlossaryRecord {
    const g = this.glossaryTables().versions.get(versionId)!;
    return { editionId, ord, versionId, term: g.term, textId: g.textId, definition: this.text(g.textId) };
  }

  /** An edition's glossary terms with their definition text ids, in order (what the differ reads). */
  glossaryIds(editionId: number): Array<[term: string, textId: number]> {
    // a command: the edition's terms, not every glossary version of the archive
    if (!this.glossaryTable) return this.sql('editionGlossaryTerms').all(this.edition(editionId).info.id) as Array<[string, number]>;
    const versions = this.glossaryTables().versions;
    return Array.from(this.glossaryOf(this.edition(editionId)), (id) => {
      const g = versions.get(id)!;
      return [g.term, g.textId] as [string, number];
    });
  }

  /** The "Note - …" paragraphs of a Rulings Summaries section, as published. */
  notesOf(editionId: number, section: string): string[] {
    let bySection = this.notes.get(editionId);
    if (!bySection) {
      bySection = new Map<string, number[]>();
      // a database written before the Rulings notes were stored has no such table
      if (this.sql('hasNotes').get()) {
        for (const [s, textId] of this.sql('notes').iterate(editionId) as IterableIterator<[string, number]>) {
          const l = bySection.get(s);
          if (l) l.push(textId);
          else bySection.set(s, [textId]);
        }
      }
      this.notes.set(editionId, bySection);
    }
    return (bySection.get(section) ?? []).map((id) => this.text(id));
  }

  /** Part headings of an edition. */
  parts(editionId: number): PartRecord[] {
    const e = this.edition(editionId);
    return (e.parts ??= (this.sql('parts').all(editionId) as Array<[string, string]>).map(([number, title]) => ({ number, title })));
  }

  /** Ability words listed by an edition. */
  abilityWords(editionId: number): string[] {
    const e = this.edition(editionId);
    return (e.abilityWords ??= this.sql('abilityWords').all(editionId) as string[]);
  }

  /** Every distinct rule number of every edition. */
  allNumbers(): string[] {
    return this.versionTable ? this.versionTable.allNumbers() : (this.sql('allNumbers').all() as string[]);
  }

  /** Where a lineage appears: (edition, position) pairs, in edition order. */
  lineagePlaces(lineageId: number): Array<[editionId: number, pos: number]> {
    const out: Array<[number, number]> = [];
    if (lineageId > 0) {
      // one indexed read (edition_rules by lineage_id, about 0.1 ms) rather than a scan of every edition's rows
      // (0.5 ms in a server, and every edition read into memory in a command) or an index held in memory
      const packed = this.sql('lineagePlaces').get(lineageId) as string | null;
      if (packed === null) return out;
      const byEdition = new Map<number, number[]>();
      for (const pair of packed.split(',')) {
        const k = pair.indexOf(':');
        const e = Number(pair.slice(0, k));
        const pos = Number(pair.slice(k + 1));
        const l = byEdition.get(e);
        if (l) l.push(pos);
        else byEdition.set(e, [pos]);
      }
      for (const e of this.editions) for (const pos of (byEdition.get(e.id) ?? []).sort((a, b) => a - b)) out.push([e.id, pos]);
      return out;
    }
    // a rule never aligned (its own negative lineage, not stored): a scan (native indexOf)
    for (const e of this.editions) {
      const l = this.edition(e.id).lineages;
      for (let k = l.indexOf(lineageId); k >= 0; k = l.indexOf(lineageId, k + 1)) out.push([e.id, k]);
    }
    return out;
  }

  /** Splits and merges recorded on the chain after `from` up to `to` (a forward diff's span), by lineage, oldest first. */
  linksBetween(fromId: number, toId: number): Array<{ kind: 'split' | 'merge'; lineage: number; prevLineage: number }> {
    const from = this.edition(fromId).info;
    const to = this.edition(toId).info;
    const out: Array<{ kind: 'split' | 'merge'; lineage: number; prevLineage: number; date: string }> = [];
    for (const l of this.lineageLinks()) {
      // (rows are read only for the editions in the span)
      const e = this.infoById.get(l.editionId)!;
      if (e.family !== to.family || !e.official || e.effectiveDate <= from.effectiveDate || e.effectiveDate > to.effectiveDate) continue;
      out.push({
        kind: l.kind,
        lineage: this.edition(l.editionId).lineages[l.pos]!,
        prevLineage: this.edition(l.prevEditionId).lineages[l.prevPos]!,
        date: e.effectiveDate,
      });
    }
    // ISO dates order as strings (localeCompare would load ICU's collator, ~6 ms in a fresh process)
    return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)).map(({ kind, lineage, prevLineage }) => ({ kind, lineage, prevLineage }));
  }

  /** An edition's rules as the aligner reads them (no examples), in document order. */
  alignRules(editionId: number): Array<{ number: string; parent: string | null; kind: string; text: string; examples: string[] }> {
    return Array.from(this.edition(editionId).versions, (id) => {
      const v = this.version(id);
      return { number: v.number, parent: v.parent, kind: v.kind, text: this.text(v.textId), examples: [] };
    });
  }

  /** An edition's parts as [number, title], in document order. */
  partTitles(editionId: number): Array<[number: string, title: string]> {
    return this.parts(editionId).map((p) => [p.number, p.title]);
  }

  /** Splits and merges between editions, by position. */
  lineageLinks(): readonly LinkRow[] {
    return (this.links ??= this.sql('links').all() as LinkRow[]);
  }

  /** Where an edition shows each of its texts: its rules' texts and examples, its glossary's definitions. */
  private textPlacesOf(e: EditionRows): TextPlaces {
    const t = this.versionTable;
    const rules = Array.from(e.versions, (id): [number, readonly number[]] => {
      if (t) return [t.textOf(id), t.examplesOf(id)];
      const v = this.version(id);
      return [v.textId, v.exampleIds];
    });
    const glossary = this.glossaryTables().versions;
    return new TextPlaces(
      rules,
      Array.from(this.glossaryOf(e), (id) => glossary.get(id)!.textId),
    );
  }

  /**
   * A text's body read past the text cache (an index's thousands of texts would only evict what
   * requests read): each body is garbage once indexed.
   */
  private bodyReader(): (textId: number) => string {
    const body = this.sql('body');
    return (textId) => body.get(textId) as string;
  }

  /**
   * Search within an edition's rule texts, examples and glossary definitions: an index of the
   * edition's texts beside its search group's others (bm25 over the group's texts, as ever), built
   * on its first search; the latest searched are kept, SEARCH_INDEX_BYTES in all at most.
   */
  searchOf(editionId: number): TextIndex {
    const built = this.searchIndexes.get(editionId);
    if (built) {
      // (a Map keeps insertion order: set again, it is the latest searched)
      this.searchIndexes.delete(editionId);
      this.searchIndexes.set(editionId, built);
      return built;
    }
    const places = this.textPlacesOf(this.edition(editionId));
    const group = this.sql('textsShown').all({ editions: JSON.stringify(this.searchGroups.get(editionId)) }) as number[];
    const index = new TextIndex(
      places,
      group.filter((id) => places.find(id) < 0),
      this.bodyReader(),
    );
    let bytes = index.bytes;
    for (const other of this.searchIndexes.values()) bytes += other.bytes;
    // (searches run to the end before the next: no caller still holds an index closed here)
    for (const [id, old] of this.searchIndexes) {
      if (bytes <= SEARCH_INDEX_BYTES) break;
      old.close();
      bytes -= old.bytes;
      this.searchIndexes.delete(id);
    }
    this.searchIndexes.set(editionId, index);
    return index;
  }

  /**
   * Reads the words of every text (see words) in slices between other work, a server's first
   * seconds: no start-up pays for reading the whole archive's texts, and words() finds the set ready.
   */
  wordsInBackground(slice = 2000): Promise<void> {
    const out = new Set<string>();
    let after = -1;
    return new Promise((resolve) => {
      const step = (): void => {
        // done meanwhile (words() read them at once), or closed
        if (this.allWords || !this.db.open) return resolve();
        const rows = this.sql('bodiesAfter').all(after, slice) as Array<[number, string]>;
        for (const [, body] of rows) addWords(out, body);
        if (rows.length < slice) {
          this.allWords = out;
          return resolve();
        }
        after = rows[rows.length - 1]![0];
        setImmediate(step);
      };
      setImmediate(step);
    });
  }

  /** Every distinct word of three letters or more of every text, lower-cased: a search word none holds is a typo. */
  words(): ReadonlySet<string> {
    return (this.allWords ??= wordsOf(this.sql('bodies').iterate() as IterableIterator<string>));
  }

  /** Frees the search indexes (the database is the caller's to close). */
  close(): void {
    for (const index of this.searchIndexes.values()) index.close();
    this.searchIndexes.clear();
  }
}
