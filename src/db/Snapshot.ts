import type { Statement } from 'better-sqlite3';
import type { Reference } from '../core/references.js';
import type { EditionInfo, GlossaryRecord, PartRecord, RuleRecord, TextRefRecord } from '../core/records.js';
import { wordsOf } from '../core/suggest.js';
import { termKey } from '../core/termKey.js';
import { TextIndex, type EditionSearch } from './TextIndex.js';
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

/** One edition's rows: version and lineage ids by position, glossary, parts. */
interface EditionRows {
  info: EditionInfo;
  versions: Int32Array;
  /** Lineage id per position; a rule outside the chain (never aligned) is its own lineage, negative. */
  lineages: Int32Array;
  /** `versions` sorted, with the position of each: membership and position by binary search (built on first use). */
  sorted: { versions: Int32Array; positions: Int32Array } | null;
  glossary: Int32Array;
  parts: PartRecord[];
  abilityWords: string[];
  /** Bit per text id: the edition shows this text (rule, example or definition); built on first use. */
  textBits: Uint8Array | null;
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

/** Editions per search index: neighbours share most texts (twenty hold about 1.3 times the texts of one). */
const SEARCH_GROUP = 20;

const EDITION_COLS = `id, family, effective_date AS effectiveDate, official, label, set_code AS setCode,
  set_name AS setName, title`;

/**
 * The whole database in memory, read once: every distinct text and rule version once, every
 * edition as arrays of ids into them (memory grows with distinct texts, not with editions). The
 * one read path of the query layer. Full-text search is SQLite's FTS5 over the texts of a group
 * of neighbouring editions, in memory (TextIndex), built on the group's first search.
 */
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

export class Snapshot {
  readonly editions: EditionInfo[];
  private readonly infoById: Map<number, EditionInfo>;
  private readonly rows = new Map<number, EditionRows>();
  private readonly partsOf = new Map<number, PartRecord[]>();
  private readonly abilityWordsOf = new Map<number, string[]>();
  private readonly editionRules: Statement;
  private readonly editionGlossary: Statement;
  /** The published-bytes statement, prepared on first use (null: no such table). */
  private published: Statement | null | undefined;
  private readonly bodies = new Map<number, string>();
  private readonly normHashes = new Map<number, number>();
  private readonly versionById = new Map<number, VersionRecord>();
  private readonly versionsByNumber = new Map<string, number[]>();
  private readonly glossaryVersions = new Map<number, { term: string; textId: number }>();
  /** Glossary versions by term folded to lower case (ASCII letters, as SQLite's lower()). */
  private readonly glossaryByTerm = new Map<string, number[]>();
  private readonly refs = new Map<number, TextRefRecord[]>();
  private readonly links: LinkRow[];
  /** Text id -> rule versions whose text it is / whose examples hold it / glossary versions defining with it. */
  private readonly ruleVersionsOfText = new Map<number, number[]>();
  private readonly exampleVersionsOfText = new Map<number, number[]>();
  private readonly glossaryVersionsOfText = new Map<number, number[]>();
  private readonly textsCiting = new Map<string, number[]>();
  private readonly files = new Map<number, { files: number; primary: PrimarySource | null }>();
  /** Rulings Summaries notes by edition, then section, in published order (text ids). */
  private readonly notes = new Map<number, Map<string, number[]>>();
  private readonly maxText: number;
  /** Each edition's search group: its members and their index once built (about 3 MB, outside the JS heap). */
  private readonly searchGroups = new Map<number, { members: EditionInfo[]; index: TextIndex | null }>();
  private allWords: Set<string> | null = null;

  constructor(readonly db: Db) {
    const all = <T>(sql: string): IterableIterator<T> => db.prepare(sql).raw(true).iterate() as IterableIterator<T>;
    this.editions = (
      db.prepare(`SELECT ${EDITION_COLS} FROM editions ORDER BY family, effective_date, label`).all() as Array<
        Omit<EditionInfo, 'official'> & { official: number }
      >
    ).map((e) => ({ ...e, family: e.family, official: e.official === 1 }));
    this.infoById = new Map(this.editions.map((e) => [e.id, e]));
    for (const family of new Set(this.editions.map((e) => e.family))) {
      const chain = this.editions.filter((e) => e.family === family);
      for (let k = 0; k < chain.length; k += SEARCH_GROUP) {
        const group = { members: chain.slice(k, k + SEARCH_GROUP), index: null };
        for (const e of group.members) this.searchGroups.set(e.id, group);
      }
    }
    // (a loop, not Math.max(...ids): spreading a hundred thousand arguments overflows the stack)
    let maxText = 0;
    for (const [id, body, normH] of all<[number, string, number]>('SELECT id, body, norm_h FROM texts')) {
      this.bodies.set(id, body);
      if (id > maxText) maxText = id;
      this.normHashes.set(id, normH);
    }
    this.maxText = maxText;
    const add = (m: Map<number, number[]>, k: number, v: number): void => {
      const l = m.get(k);
      if (l) l.push(v);
      else m.set(k, [v]);
    };
    for (const [id, number, kind, parent, textId, examples] of all<[number, string, string, string | null, number, string]>(
      'SELECT id, number, kind, parent, text_id, examples FROM rule_versions',
    )) {
      const exampleIds = examples === '[]' ? [] : (JSON.parse(examples) as number[]);
      this.versionById.set(id, { id, number, kind, parent, textId, exampleIds, examplesKey: examples });
      const byNumber = this.versionsByNumber.get(number);
      if (byNumber) byNumber.push(id);
      else this.versionsByNumber.set(number, [id]);
      add(this.ruleVersionsOfText, textId, id);
      for (const x of exampleIds) add(this.exampleVersionsOfText, x, id);
    }
    for (const [id, term, textId] of all<[number, string, number]>('SELECT id, term, text_id FROM glossary_versions')) {
      this.glossaryVersions.set(id, { term, textId });
      add(this.glossaryVersionsOfText, textId, id);
      const key = termKey(term);
      const same = this.glossaryByTerm.get(key);
      if (same) same.push(id);
      else this.glossaryByTerm.set(key, [id]);
    }
    for (const [textId, ord, target, kind, start, end] of all<[number, number, string, TextRefRecord['kind'], number, number]>(
      'SELECT text_id, ord, target, kind, start, "end" FROM text_refs ORDER BY text_id, ord',
    )) {
      const r: TextRefRecord = { textId, ord, target, kind, start, end };
      const l = this.refs.get(textId);
      if (l) l.push(r);
      else this.refs.set(textId, [r]);
      const c = this.textsCiting.get(target);
      if (!c) this.textsCiting.set(target, [textId]);
      else if (c[c.length - 1] !== textId) c.push(textId);
    }
    for (const [e, number, title] of all<[number, string, string]>('SELECT edition_id, number, title FROM edition_parts ORDER BY edition_id, ord')) {
      const l = this.partsOf.get(e);
      if (l) l.push({ number, title });
      else this.partsOf.set(e, [{ number, title }]);
    }
    for (const [e, w] of all<[number, string]>('SELECT edition_id, word FROM ability_words ORDER BY edition_id, ord')) {
      const l = this.abilityWordsOf.get(e);
      if (l) l.push(w);
      else this.abilityWordsOf.set(e, [w]);
    }
    // One row per edition, ids as JSON arrays (parsed natively) rather than a JS row per rule.
    this.editionRules = db
      .prepare(
        `SELECT json_group_array(version_id), json_group_array(coalesce(lineage_id, 0))
         FROM (SELECT version_id, lineage_id FROM edition_rules WHERE edition_id = ? ORDER BY ord)`,
      )
      .raw(true);
    this.editionGlossary = db
      .prepare('SELECT json_group_array(version_id) FROM (SELECT version_id FROM edition_glossary WHERE edition_id = ? ORDER BY ord)')
      .pluck();
    // a database written before the Rulings notes were stored has no such table
    const notes = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'edition_notes'`).get()
      ? all<[number, string, number]>('SELECT edition_id, section, text_id FROM edition_notes ORDER BY edition_id, ord')
      : [];
    for (const [e, section, textId] of notes) {
      let bySection = this.notes.get(e);
      if (!bySection) this.notes.set(e, (bySection = new Map<string, number[]>()));
      const l = bySection.get(section);
      if (l) l.push(textId);
      else bySection.set(section, [textId]);
    }
    this.links = db
      .prepare(
        `SELECT kind, edition_id AS editionId, ord AS pos, prev_edition_id AS prevEditionId, prev_ord AS prevPos
         FROM lineage_links ORDER BY edition_id, ord`,
      )
      .all() as LinkRow[];
    type FileRow = [number, number, string | null, string | null, string | null, string | null, number | null, string, string, string];
    for (const [e, n, path, sha256, url, archive, official, format, encoding, lineEndings] of all<FileRow>(
      `SELECT e.id, (SELECT count(*) FROM source_files f WHERE f.edition_id = e.id), p.path, p.sha256,
              json_extract(p.report, '$.provenance.url'), json_extract(p.report, '$.provenance.archive'), json_extract(p.report, '$.provenance.official'),
              p.format, p.encoding, p.line_endings
       FROM editions e LEFT JOIN source_files p ON p.id = e.primary_file_id`,
    )) {
      this.files.set(e, {
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
      });
    }
  }

  // An edition's rows are read on its first use: a command that reads one edition (the CLI) loads
  // one, and a server loads them all at start (KnowledgeBase.warm).
  private edition(editionId: number): EditionRows {
    const cached = this.rows.get(editionId);
    if (cached) return cached;
    const info = this.infoById.get(editionId);
    if (!info) throw new Error(`no edition ${editionId} in the snapshot`);
    const [v, l] = this.editionRules.get(editionId) as [string, string];
    const versions = Int32Array.from(JSON.parse(v) as number[]);
    const lineages = Int32Array.from(JSON.parse(l) as number[]);
    for (let k = 0; k < lineages.length; k++) if (lineages[k] === 0) lineages[k] = -(info.id * 100000 + k);
    const glossary = Int32Array.from(JSON.parse(this.editionGlossary.get(editionId) as string) as number[]);
    const rows: EditionRows = {
      info,
      versions,
      lineages,
      sorted: null,
      glossary,
      parts: this.partsOf.get(editionId) ?? [],
      abilityWords: this.abilityWordsOf.get(editionId) ?? [],
      textBits: null,
      numbers: null,
    };
    this.rows.set(editionId, rows);
    return rows;
  }

  private sortedOf(e: EditionRows): { versions: Int32Array; positions: Int32Array } {
    if (e.sorted) return e.sorted;
    const v = e.versions;
    const positions = Int32Array.from(v.keys()).sort((a, b) => v[a]! - v[b]! || a - b);
    return (e.sorted = { versions: positions.map((k) => v[k]!), positions });
  }

  private textBitsOf(e: EditionRows): Uint8Array {
    if (e.textBits) return e.textBits;
    const bits = new Uint8Array((this.maxText >> 3) + 1);
    const mark = (t: number): void => void (bits[t >> 3]! |= 1 << (t & 7));
    for (const id of e.versions) {
      const ver = this.versionById.get(id)!;
      mark(ver.textId);
      for (const x of ver.exampleIds) mark(x);
    }
    for (const id of e.glossary) mark(this.glossaryVersions.get(id)!.textId);
    return (e.textBits = bits);
  }

  /** Reads every edition's rows now (a server, so that no request pays for it). */
  loadAll(): void {
    for (const info of this.editions) {
      const e = this.edition(info.id);
      this.sortedOf(e);
    }
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
    return this.files.get(editionId) ?? { files: 0, primary: null };
  }

  /** Number of rules of an edition. */
  ruleCount(editionId: number): number {
    return this.edition(editionId).versions.length;
  }

  /** The rule at a position of an edition's document order. */
  ruleAt(editionId: number, pos: number): RuleRecord | null {
    const e = this.edition(editionId);
    const id = e.versions[pos];
    if (id === undefined) return null;
    const v = this.versionById.get(id)!;
    const lineage = e.lineages[pos]!;
    return {
      editionId,
      ord: pos,
      versionId: id,
      number: v.number,
      kind: v.kind,
      parent: v.parent,
      textId: v.textId,
      text: this.bodies.get(v.textId)!,
      exampleIds: v.exampleIds,
      lineageId: lineage < 0 ? null : lineage,
    };
  }

  /** Position of a rule version in an edition, or -1. */
  positionOf(editionId: number, versionId: number): number {
    const e = this.edition(editionId);
    const sorted = this.sortedOf(e);
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

  /** A rule by number in an edition (the first, should a source number two rules alike). */
  ruleByNumber(editionId: number, number: string): RuleRecord | null {
    let best = -1;
    for (const id of this.versionsByNumber.get(number) ?? []) {
      const p = this.positionOf(editionId, id);
      if (p >= 0 && (best < 0 || p < best)) best = p;
    }
    return best < 0 ? null : this.ruleAt(editionId, best);
  }

  /** Every rule of an edition printed with a number, in document order (two when a source prints a number twice). */
  rulesByNumber(editionId: number, number: string): RuleRecord[] {
    const positions: number[] = [];
    for (const id of this.versionsByNumber.get(number) ?? []) {
      const p = this.positionOf(editionId, id);
      if (p >= 0) positions.push(p);
    }
    return positions.sort((x, y) => x - y).flatMap((p) => this.ruleAt(editionId, p) ?? []);
  }

  /** Every rule number of an edition, in document order. */
  numbers(editionId: number): string[] {
    const e = this.edition(editionId);
    if (e.numbers === null) {
      // (a loop rather than Array.from, which walks a typed array through an iterator)
      const numbers = new Array<string>(e.versions.length);
      for (let k = 0; k < numbers.length; k++) numbers[k] = this.versionById.get(e.versions[k]!)!.number;
      e.numbers = numbers;
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
    const v = this.versionById.get(id);
    if (!v) throw new Error(`no rule version ${id} in the snapshot`);
    return v;
  }

  /** A text by id ('' when unknown). */
  text(id: number): string {
    return this.bodies.get(id) ?? '';
  }

  /** Texts by id. */
  texts(ids: Iterable<number>): Map<number, string> {
    const out = new Map<number, string>();
    for (const id of ids) {
      const t = this.bodies.get(id);
      if (t !== undefined) out.set(id, t);
    }
    return out;
  }

  /** A text with its stored references and normalized-text hash, as the differ compares it. */
  diffText(id: number): { text: string; refs: Reference[]; normHash: number } {
    return { text: this.text(id), refs: this.refs.get(id) ?? [], normHash: this.normHashes.get(id) ?? 0 };
  }

  /** Stored references of a text, in text order. */
  refsOfText(textId: number): TextRefRecord[] {
    return this.refs.get(textId) ?? [];
  }

  /** Texts that cite a number (rule texts, examples, definitions of any edition). */
  textsCitingNumber(number: string): readonly number[] {
    return this.textsCiting.get(number) ?? [];
  }

  /** Positions of an edition's rules whose text is `textId` (asText) or whose examples hold it. */
  positionsUsingText(editionId: number, textId: number, as: 'text' | 'example'): number[] {
    const versions = (as === 'text' ? this.ruleVersionsOfText : this.exampleVersionsOfText).get(textId) ?? [];
    const out: number[] = [];
    for (const id of versions) {
      const p = this.positionOf(editionId, id);
      if (p >= 0) out.push(p);
    }
    return out;
  }

  /** The glossary of an edition, in published order. */
  glossary(editionId: number): GlossaryRecord[] {
    const e = this.edition(editionId);
    return Array.from(e.glossary, (id, ord) => this.glossaryRecord(editionId, ord, id));
  }

  /** An edition's glossary entry for a term (the same term: see termKey), or null. */
  glossaryEntry(editionId: number, term: string): GlossaryRecord | null {
    const ids = this.glossaryByTerm.get(termKey(term));
    if (!ids) return null;
    const e = this.edition(editionId);
    let best: GlossaryRecord | null = null;
    for (const id of ids) {
      const ord = e.glossary.indexOf(id);
      if (ord >= 0 && (best === null || ord < best.ord)) best = this.glossaryRecord(editionId, ord, id);
    }
    return best;
  }

  /** Glossary entries of an edition defined by a text. */
  glossaryUsingText(editionId: number, textId: number): GlossaryRecord[] {
    const ids = this.glossaryVersionsOfText.get(textId);
    if (!ids) return [];
    const g = this.edition(editionId).glossary;
    const out: GlossaryRecord[] = [];
    // a text defines a handful of versions: find each (native scans) rather than walk the glossary
    for (const id of ids) for (let ord = g.indexOf(id); ord >= 0; ord = g.indexOf(id, ord + 1)) out.push(this.glossaryRecord(editionId, ord, id));
    return out.sort((x, y) => x.ord - y.ord);
  }

  private glossaryRecord(editionId: number, ord: number, versionId: number): GlossaryRecord {
    const g = this.glossaryVersions.get(versionId)!;
    return { editionId, ord, versionId, term: g.term, textId: g.textId, definition: this.bodies.get(g.textId)! };
  }

  /** An edition's glossary terms with their definition text ids, in order (what the differ reads). */
  glossaryIds(editionId: number): Array<[term: string, textId: number]> {
    return Array.from(this.edition(editionId).glossary, (id) => {
      const g = this.glossaryVersions.get(id)!;
      return [g.term, g.textId] as [string, number];
    });
  }

  /** The "Note - …" paragraphs of a Rulings Summaries section, as published. */
  notesOf(editionId: number, section: string): string[] {
    return (this.notes.get(editionId)?.get(section) ?? []).map((id) => this.bodies.get(id)!);
  }

  /** Part headings of an edition. */
  parts(editionId: number): PartRecord[] {
    return this.edition(editionId).parts;
  }

  /** Ability words listed by an edition. */
  abilityWords(editionId: number): string[] {
    return this.edition(editionId).abilityWords;
  }

  /** Every distinct rule number of every edition. */
  allNumbers(): string[] {
    return [...this.versionsByNumber.keys()];
  }

  /** Where a lineage appears: (edition, position) pairs, in edition order. */
  lineagePlaces(lineageId: number): Array<[editionId: number, pos: number]> {
    // A scan (native indexOf, about half a millisecond for every edition) instead of an index of
    // every lineage: no start-up cost for a one-shot command, no memory held by a server.
    const out: Array<[number, number]> = [];
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
    for (const l of this.links) {
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
      const v = this.versionById.get(id)!;
      return { number: v.number, parent: v.parent, kind: v.kind, text: this.bodies.get(v.textId)!, examples: [] };
    });
  }

  /** An edition's parts as [number, title], in document order. */
  partTitles(editionId: number): Array<[number: string, title: string]> {
    return this.edition(editionId).parts.map((p) => [p.number, p.title]);
  }

  /** Splits and merges between editions, by position. */
  lineageLinks(): readonly LinkRow[] {
    return this.links;
  }

  /**
   * Search within an edition's rule texts, examples and glossary definitions. Editions share an
   * index by group of SEARCH_GROUP in date order (per family), built on the group's first search.
   */
  searchOf(editionId: number): EditionSearch {
    const shown = this.textBitsOf(this.edition(editionId));
    const group = this.searchGroups.get(editionId)!;
    if (!group.index) {
      const bits = new Uint8Array(shown.length);
      for (const member of group.members) {
        const b = this.textBitsOf(this.edition(member.id));
        for (let k = 0; k < b.length; k++) bits[k]! |= b[k]!;
      }
      const texts: Array<[number, string]> = [];
      for (let k = 0; k < bits.length; k++) {
        for (let j = 0; j < 8; j++) if ((bits[k]! >> j) & 1) texts.push([k * 8 + j, this.bodies.get(k * 8 + j)!]);
      }
      group.index = new TextIndex(
        texts,
        group.members.map((m) => this.textBitsOf(this.edition(m.id))),
      );
    }
    return group.index.forEdition(shown);
  }

  /** Every distinct word of three letters or more of every text, lower-cased: a search word none holds is a typo. */
  words(): ReadonlySet<string> {
    return (this.allWords ??= wordsOf(this.bodies.values()));
  }

  /** Frees the search indexes (the database is the caller's to close). */
  close(): void {
    for (const group of new Set(this.searchGroups.values())) {
      group.index?.close();
      group.index = null;
    }
  }
}
