import type { DocumentFamily, ParsedDocument } from '../../src/core/types.js';
import { hash53 } from './hash53.js';
import type { Heading } from './renditionOf.js';
import { splitUnitText } from '../../src/core/policyUnit.js';
import { normalizeText } from '../../src/core/normalize.js';
import { storedTexts, type TextHashes } from './textHashes.js';
import { wholeWords } from './resolveAmbiguousWords.js';
import type { Db } from '../../src/db/openDb.js';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { STORE_FORMAT, storeFormatProblem } from '../../src/db/storeFormat.js';

const gzipAsync = promisify(gzip);

/** What is stored of an edition besides its parsed document. */
export interface EditionMeta {
  family: DocumentFamily;
  effectiveDate: string;
  official: boolean;
  label: string;
  setCode: string | null;
  setName: string | null;
  warnings: string[];
}

/** A source file row, as recorded by the writer. */
export interface SourceFileRow {
  sha256: string;
  path: string;
  size: number;
  encoding: string;
  lineEndings: string;
  format: string;
  labelDate: string | null;
  editionId: number | null;
  role: 'primary' | 'duplicate' | 'fragment';
  differing: number;
  report: unknown;
}

/** Stored edition summary. */
export interface EditionRow {
  id: number;
  family: DocumentFamily;
  effectiveDate: string;
  official: number;
  label: string;
  primaryFileId: number | null;
}

/**
 * Writes parsed documents into the content-addressed store. Statements are
 * prepared once; callers wrap calls in db.transaction().
 */
export class Writer {
  /**
   * Stored texts by hash53 of their body, with the hash of their normalized form, which tells two
   * texts apart should their hashes collide (the bodies stay in the database).
   */
  private readonly texts = new Map<number, { id: number; normH: number }>();
  /** Stored rule versions by text id (a handful per text): finding one compares fields, no key string is built. */
  private readonly ruleVersions = new Map<number, RuleVersionRow[]>();
  private readonly glossaryVersionIds = new Map<string, number>();
  /** Texts inserted by this writer whose references are not extracted yet (see takeNewTexts). */
  private newTexts: Array<{ id: number; body: string; family: DocumentFamily }> = [];
  /** The family of the edition being stored: what a new text's references are read as. */
  private internFamily: DocumentFamily = 'cr';
  /** How many texts this writer inserted. */
  insertedTexts = 0;
  /** Published files being compressed (see storePublished). */
  private readonly compressing: Array<Promise<void>> = [];

  private readonly s;

  constructor(readonly db: Db) {
    // texts still referred to, gathered when pruning (a temporary table: nothing reaches the file)
    db.exec('CREATE TEMP TABLE IF NOT EXISTS used_texts (id INTEGER PRIMARY KEY)');
    this.s = {
      insertText: db.prepare('INSERT INTO texts (h, norm_h, body) VALUES (@h, @normH, @body)'),
      insertRuleVersion: db.prepare(
        `INSERT INTO rule_versions (number, kind, parent, text_id, examples, citations)
         VALUES (@number, @kind, @parent, @textId, @examples, @citations)`,
      ),
      insertUnitParts: db.prepare('INSERT INTO unit_parts (version_id, parts) VALUES (@versionId, @parts)'),
      insertGlossaryVersion: db.prepare('INSERT INTO glossary_versions (term, text_id) VALUES (@term, @textId)'),
      findEdition: db.prepare(
        `SELECT id, family, effective_date AS effectiveDate, official, label, primary_file_id AS primaryFileId
         FROM editions WHERE family = @family AND effective_date = @effectiveDate AND label = @label`,
      ),
      // editions of a family near a date that hold a file other than a third party's HTML rendition (@published 1),
      // or none (0; see renditionOf)
      editionsNear: db.prepare(
        `SELECT e.id, e.effective_date AS effectiveDate FROM editions e
         WHERE e.family = @family AND e.label = '' AND e.effective_date BETWEEN @from AND @to
           AND EXISTS (SELECT 1 FROM source_files f WHERE f.edition_id = e.id AND f.format <> 'policy-html') = @published`,
      ),
      filePaths: db.prepare('SELECT path FROM source_files WHERE edition_id = @id ORDER BY id').pluck(),
      // an edition absorbed by another (absorbEdition): its files move, its rows and lineage records go
      absorbFiles: db.prepare(
        `UPDATE source_files SET edition_id = @into, role = iif(role = 'primary', 'duplicate', role), differing = @differing WHERE edition_id = @id`,
      ),
      // entries of two editions that differ after normalization or exist in one only, as countDiffering counts a
      // copy's: a rule (its text and examples) by number, a glossary entry by term; of a key twice, the last
      differingEntries: db
        .prepare(
          `WITH entries AS (
           SELECT r.edition_id AS e, v.number AS k, max(r.ord),
             t.norm_h || ':' || coalesce((SELECT group_concat(x.norm_h, ',') FROM json_each(v.examples) j JOIN texts x ON x.id = j.value), '') AS h
           FROM edition_rules r JOIN rule_versions v ON v.id = r.version_id JOIN texts t ON t.id = v.text_id
           WHERE r.edition_id IN (@id, @into) GROUP BY r.edition_id, v.number
           UNION ALL
           SELECT g.edition_id, 'glossary:' || lower(gv.term), max(g.ord), t.norm_h
           FROM edition_glossary g JOIN glossary_versions gv ON gv.id = g.version_id JOIN texts t ON t.id = gv.text_id
           WHERE g.edition_id IN (@id, @into) GROUP BY g.edition_id, lower(gv.term)
         )
         SELECT count(*) FROM (SELECT k FROM entries GROUP BY k HAVING count(*) = 1 OR min(h) <> max(h))`,
        )
        .pluck(),
      absorbFragments: db.prepare('UPDATE fragment_sources SET edition_id = @into WHERE edition_id = @id'),
      absorbFragmentReferences: db.prepare('UPDATE fragment_sources SET reference_edition_id = @into WHERE reference_edition_id = @id'),
      dropLineageState: db.prepare('DELETE FROM edition_lineage WHERE edition_id = @id OR prev_edition_id = @id'),
      dropLineageLinks: db.prepare('DELETE FROM lineage_links WHERE edition_id = @id OR prev_edition_id = @id'),
      dropLineagePairs: db.prepare('DELETE FROM lineage_pairs WHERE edition_id = @id'),
      dropEdition: db.prepare('DELETE FROM editions WHERE id = @id'),
      unitHeadings: db.prepare(
        `SELECT v.number, t.body FROM edition_rules r JOIN rule_versions v ON v.id = r.version_id JOIN texts t ON t.id = v.text_id
         WHERE r.edition_id = @id ORDER BY r.ord`,
      ),
      insertEdition: db.prepare(
        `INSERT INTO editions (family, effective_date, official, label, set_code, set_name, title, introduction, credits, warnings)
         VALUES (@family, @effectiveDate, @official, @label, @setCode, @setName, @title, @introduction, @credits, @warnings)`,
      ),
      updateEdition: db.prepare(
        `UPDATE editions SET official = @official, set_code = @setCode, set_name = @setName, title = @title,
           introduction = @introduction, credits = @credits, warnings = @warnings WHERE id = @id`,
      ),
      setPrimary: db.prepare('UPDATE editions SET primary_file_id = @fileId WHERE id = @id'),
      clearRules: db.prepare('DELETE FROM edition_rules WHERE edition_id = @id'),
      clearParts: db.prepare('DELETE FROM edition_parts WHERE edition_id = @id'),
      clearGlossary: db.prepare('DELETE FROM edition_glossary WHERE edition_id = @id'),
      clearAbilityWords: db.prepare('DELETE FROM ability_words WHERE edition_id = @id'),
      clearIndex: db.prepare('DELETE FROM edition_index WHERE edition_id = @id'),
      clearNotes: db.prepare('DELETE FROM edition_notes WHERE edition_id = @id'),
      insertNote: db.prepare(
        'INSERT INTO edition_notes (edition_id, ord, section, text_id, citations) VALUES (@editionId, @ord, @section, @textId, @citations)',
      ),
      // One statement per edition: ord is the position in the JSON array of version ids.
      insertEditionRules: db.prepare(
        'INSERT INTO edition_rules (edition_id, ord, version_id) SELECT @editionId, key, value FROM json_each(@versionIds) ORDER BY value',
      ),
      insertPart: db.prepare('INSERT INTO edition_parts (edition_id, ord, number, title) VALUES (@editionId, @ord, @number, @title)'),
      insertEditionGlossary: db.prepare(
        'INSERT INTO edition_glossary (edition_id, ord, version_id) SELECT @editionId, key, value FROM json_each(@versionIds) ORDER BY value',
      ),
      insertAbilityWord: db.prepare('INSERT INTO ability_words (edition_id, ord, word) VALUES (@editionId, @ord, @word)'),
      insertIndex: db.prepare('INSERT INTO edition_index (edition_id, ord, topic, targets) VALUES (@editionId, @ord, @topic, @targets)'),
      insertFile: db.prepare(
        `INSERT INTO source_files (sha256, path, size, encoding, line_endings, format, label_date, edition_id, role, differing, report, ingested_at)
         VALUES (@sha256, @path, @size, @encoding, @lineEndings, @format, @labelDate, @editionId, @role, @differing, @report, @ingestedAt)
         ON CONFLICT (sha256) DO UPDATE SET path = excluded.path, edition_id = excluded.edition_id, role = excluded.role,
           differing = excluded.differing, report = excluded.report`,
      ),
      demoteFiles: db.prepare(`UPDATE source_files SET role = 'duplicate' WHERE edition_id = @editionId AND role = 'primary'`),
      editionProse: db.prepare('SELECT introduction, credits FROM editions'),
      textBodies: db.prepare('SELECT body FROM texts').pluck(),
      textBody: db.prepare('SELECT body FROM texts WHERE id = ?').pluck(),
      fileBySha: db.prepare('SELECT id FROM source_files WHERE sha256 = ?'),
      primaryReport: db.prepare(`SELECT report FROM source_files WHERE edition_id = @id AND role = 'primary'`).pluck(),
      insertPublished: db.prepare(`INSERT OR IGNORE INTO source_bytes (sha256, size, gzip) VALUES (@sha256, @size, X'')`),
      setPublished: db.prepare('UPDATE source_bytes SET gzip = @gzip WHERE sha256 = @sha256'),
      // bytes of a file no edition stores any more (its edition got a better copy)
      prunePublished: db.prepare(
        'DELETE FROM source_bytes WHERE sha256 NOT IN (SELECT f.sha256 FROM editions e JOIN source_files f ON f.id = e.primary_file_id)',
      ),
      pruneUnitParts: db.prepare('DELETE FROM unit_parts WHERE version_id NOT IN (SELECT version_id FROM edition_rules)'),
      pruneRuleVersions: db.prepare('DELETE FROM rule_versions WHERE id NOT IN (SELECT version_id FROM edition_rules) RETURNING id').pluck(),
      pruneGlossaryVersions: db.prepare('DELETE FROM glossary_versions WHERE id NOT IN (SELECT version_id FROM edition_glossary) RETURNING id').pluck(),
      insertRef: db.prepare('INSERT OR REPLACE INTO text_refs (text_id, ord, target, kind, start, "end") VALUES (@textId, @ord, @target, @kind, @start, @end)'),
      clearUsed: db.prepare('DELETE FROM temp.used_texts'),
      collectUsed: db.prepare(
        `INSERT OR IGNORE INTO temp.used_texts (id)
         SELECT text_id FROM rule_versions
         UNION ALL SELECT j.value FROM rule_versions rv, json_each(rv.examples) j WHERE rv.examples <> '[]'
         UNION ALL SELECT text_id FROM glossary_versions
         UNION ALL SELECT text_id FROM edition_notes
         UNION ALL SELECT text_id FROM fragment_rules
         UNION ALL SELECT j.value FROM fragment_rules fr, json_each(fr.examples) j WHERE fr.examples <> '[]'`,
      ),
      unusedTexts: db.prepare('SELECT id, h, body FROM texts WHERE id NOT IN (SELECT id FROM temp.used_texts)'),
      pruneRefs: db.prepare('DELETE FROM text_refs WHERE text_id NOT IN (SELECT id FROM temp.used_texts)'),
      pruneTexts: db.prepare('DELETE FROM texts WHERE id NOT IN (SELECT id FROM temp.used_texts)'),
    };
    checkFormat(db);
    for (const r of db.prepare('SELECT id, h, norm_h AS normH FROM texts').iterate() as Iterable<{ id: number; h: number; normH: number }>) {
      this.texts.set(r.h, { id: r.id, normH: r.normH });
    }
    const rv = db.prepare('SELECT id, number, kind, parent, text_id, examples, citations FROM rule_versions');
    for (const r of rv.iterate() as Iterable<RuleVersionRow>) {
      this.rememberVersion(r);
    }
    for (const r of db.prepare('SELECT id, term, text_id FROM glossary_versions').iterate() as Iterable<{
      id: number;
      term: string;
      text_id: number;
    }>) {
      this.glossaryVersionIds.set(`${r.term}\u0000${r.text_id}`, r.id);
    }
  }

  /**
   * Returns the id of a text, storing it if new. `h` and `normH` (hash53 of the body and of its
   * normalized form) may come precomputed, from where the document was parsed.
   */
  internText(body: string, h = hash53(body), normH = hash53(normalizeText(body))): number {
    const known = this.texts.get(h);
    if (known !== undefined) {
      if (known.normH === normH) return known.id;
      const other = this.s.textBody.get(known.id) as string;
      throw new Error(`hash53 collision between two texts: ${JSON.stringify(other.slice(0, 60))} and ${JSON.stringify(body.slice(0, 60))}`);
    }
    const id = Number(this.s.insertText.run({ h, normH, body }).lastInsertRowid);
    this.texts.set(h, { id, normH });
    this.newTexts.push({ id, body, family: this.internFamily });
    this.insertedTexts++;
    return id;
  }

  /**
   * Which of `words` a stored text (or an edition's introduction or credits) holds as a whole word,
   * not inside a longer one: the corpus's evidence for reading a word one way or another.
   */
  attested(words: readonly string[]): Set<string> {
    const found = new Set<string>();
    if (words.length === 0) return found;
    const re = wholeWords(words, true);
    const scan = (body: string | null): void => {
      if (body !== null) for (const m of body.matchAll(re)) found.add(m[1]!);
    };
    for (const body of this.s.textBodies.iterate() as Iterable<string>) scan(body);
    for (const e of this.s.editionProse.iterate() as Iterable<{ introduction: string | null; credits: string | null }>) {
      scan(e.introduction);
      scan(e.credits);
    }
    return found;
  }

  /** Stores the cross-references found in a text, in order of appearance. */
  storeTextRefs(textId: number, refs: ReadonlyArray<{ target: string; kind: string; start: number; end: number }>): void {
    for (let ord = 0; ord < refs.length; ord++) {
      const r = refs[ord]!;
      this.s.insertRef.run({ textId, ord, target: r.target, kind: r.kind, start: r.start, end: r.end });
    }
  }

  /** Texts inserted since the last call (new texts need their references extracted). */
  takeNewTexts(): Array<{ id: number; body: string; family: DocumentFamily }> {
    const out = this.newTexts;
    this.newTexts = [];
    return out;
  }

  /**
   * Deletes rule and glossary versions no edition holds any more, then texts nothing refers to
   * (with their references): what replacing an edition's content leaves behind.
   * Returns how many texts went.
   */
  pruneOrphans(): number {
    this.s.pruneUnitParts.run();
    const goneVersions = new Set(this.s.pruneRuleVersions.all() as number[]);
    const goneTerms = new Set(this.s.pruneGlossaryVersions.all() as number[]);
    for (const [textId, list] of this.ruleVersions) {
      const kept = list.filter((v) => !goneVersions.has(v.id));
      if (kept.length === 0) this.ruleVersions.delete(textId);
      else if (kept.length < list.length) this.ruleVersions.set(textId, kept);
    }
    for (const [k, id] of this.glossaryVersionIds) if (goneTerms.has(id)) this.glossaryVersionIds.delete(k);
    this.s.clearUsed.run();
    this.s.collectUsed.run();
    const gone = this.s.unusedTexts.all() as Array<{ id: number; h: number; body: string }>;
    if (gone.length > 0) {
      this.s.pruneRefs.run();
      this.s.pruneTexts.run();
      const ids = new Set(gone.map((t) => t.id));
      for (const t of gone) this.texts.delete(t.h);
      this.newTexts = this.newTexts.filter((t) => !ids.has(t.id));
    }
    this.s.clearUsed.run();
    return gone.length;
  }

  /** Finds a stored edition. */
  findEdition(family: DocumentFamily, effectiveDate: string, label = ''): EditionRow | undefined {
    return this.s.findEdition.get({ family, effectiveDate, label }) as EditionRow | undefined;
  }

  /** Stored editions of a family between two dates that hold a file other than an HTML rendition (official publications). */
  publishedNear(family: DocumentFamily, from: string, to: string): Array<{ id: number; effectiveDate: string }> {
    return this.s.editionsNear.all({ family, from, to, published: 1 }) as Array<{ id: number; effectiveDate: string }>;
  }

  /** Stored editions of a family between two dates that hold nothing but HTML renditions (see renditionOf). */
  renditionsNear(family: DocumentFamily, from: string, to: string): Array<{ id: number; effectiveDate: string }> {
    return this.s.editionsNear.all({ family, from, to, published: 0 }) as Array<{ id: number; effectiveDate: string }>;
  }

  /** The paths of a stored edition's files, in the order they were first recorded. */
  filePaths(editionId: number): string[] {
    return this.s.filePaths.all({ id: editionId }) as string[];
  }

  /**
   * Removes stored edition `id`, filed since as a copy of edition `into` (a rendition stored before the
   * official edition it renders arrived): its files become `into`'s copies, its rows go, and the lineage
   * records naming it go with them (the lineage step aligns its neighbours again). Texts and versions
   * no edition uses any more are left to pruneOrphans.
   */
  absorbEdition(id: number, into: number): void {
    const p = { id, into };
    this.s.absorbFiles.run({ ...p, differing: this.s.differingEntries.get(p) as number });
    this.s.absorbFragments.run(p);
    this.s.absorbFragmentReferences.run(p);
    this.clearRows(id);
    this.s.dropLineageState.run({ id });
    this.s.dropLineageLinks.run({ id });
    this.s.dropLineagePairs.run({ id });
    this.s.dropEdition.run({ id });
  }

  /** Deletes an edition's rows (rules, parts, glossary, ability words, index, notes), not the edition. */
  private clearRows(id: number): void {
    for (const st of [this.s.clearRules, this.s.clearParts, this.s.clearGlossary, this.s.clearAbilityWords, this.s.clearIndex, this.s.clearNotes])
      st.run({ id });
  }

  /** A stored tournament-document edition's units, number and title. */
  unitHeadings(editionId: number): Heading[] {
    return (this.s.unitHeadings.all({ id: editionId }) as Array<{ number: string; body: string }>).map((r) => [r.number, splitUnitText(r.body).title] as const);
  }

  /**
   * Stores (or replaces the content of) one edition from a parsed document; returns its id.
   * New texts reach the full-text index at the next indexNewTexts() (one batch indexes faster).
   */
  storeEdition(meta: EditionMeta, doc: ParsedDocument, hashes?: TextHashes): number {
    // texts in storedTexts order, with their precomputed hashes when given
    const texts = storedTexts(doc);
    this.internFamily = meta.family;
    let k = 0;
    const intern = (): number => {
      const body = texts[k]!;
      const id = hashes ? this.internText(body, hashes.h[k], hashes.normH[k]) : this.internText(body);
      k++;
      return id;
    };
    const row = {
      family: meta.family,
      effectiveDate: meta.effectiveDate,
      official: meta.official ? 1 : 0,
      label: meta.label,
      setCode: meta.setCode,
      setName: meta.setName,
      title: doc.title,
      introduction: doc.introduction,
      credits: doc.credits,
      warnings: JSON.stringify(meta.warnings),
    };
    const existing = this.findEdition(meta.family, meta.effectiveDate, meta.label);
    let id: number;
    if (existing) {
      id = existing.id;
      this.s.updateEdition.run({ ...row, id });
      this.clearRows(id);
    } else {
      id = Number(this.s.insertEdition.run(row).lastInsertRowid);
    }
    const versionIds: number[] = [];
    for (const rule of doc.rules) {
      const textId = intern();
      const examples = rule.examples.length === 0 ? '[]' : JSON.stringify(rule.examples.map(() => intern()));
      const citations = rule.citations && rule.citations.length > 0 ? JSON.stringify(rule.citations) : null;
      const parent = rule.parent ?? null;
      const v = this.ruleVersions
        .get(textId)
        ?.find((x) => x.number === rule.number && x.examples === examples && x.kind === rule.kind && x.parent === parent && x.citations === citations);
      if (v) {
        versionIds.push(v.id);
        continue;
      }
      const row = { number: rule.number, kind: rule.kind, parent, text_id: textId, examples, citations, id: 0 };
      row.id = Number(this.s.insertRuleVersion.run({ number: rule.number, kind: rule.kind, parent, textId, examples, citations }).lastInsertRowid);
      this.rememberVersion(row);
      if (rule.policyParts && rule.policyParts.length > 0) this.s.insertUnitParts.run({ versionId: row.id, parts: JSON.stringify(rule.policyParts) });
      versionIds.push(row.id);
    }
    this.s.insertEditionRules.run({ editionId: id, versionIds: JSON.stringify(versionIds) });
    doc.parts.forEach((p, ord) => this.s.insertPart.run({ editionId: id, ord, number: p.number, title: p.title }));
    const glossaryIds: number[] = [];
    for (const g of doc.glossary) {
      const textId = intern();
      const key = `${g.term}\u0000${textId}`;
      let versionId = this.glossaryVersionIds.get(key);
      if (versionId === undefined) {
        versionId = Number(this.s.insertGlossaryVersion.run({ term: g.term, textId }).lastInsertRowid);
        this.glossaryVersionIds.set(key, versionId);
      }
      glossaryIds.push(versionId);
    }
    if (glossaryIds.length > 0) this.s.insertEditionGlossary.run({ editionId: id, versionIds: JSON.stringify(glossaryIds) });
    let noteOrd = 0;
    for (const rule of doc.rules) {
      for (const note of rule.notes ?? []) {
        const citations = note.citations.length > 0 ? JSON.stringify(note.citations) : null;
        this.s.insertNote.run({ editionId: id, ord: noteOrd++, section: rule.number, textId: intern(), citations });
      }
    }
    doc.abilityWords.forEach((word, ord) => this.s.insertAbilityWord.run({ editionId: id, ord, word }));
    doc.index.forEach((e, ord) => this.s.insertIndex.run({ editionId: id, ord, topic: e.topic, targets: JSON.stringify(e.targets) }));
    if (hashes && k !== hashes.h.length) throw new Error(`storeEdition: ${hashes.h.length} text hashes given for ${k} texts`);
    this.internFamily = 'cr';
    return id;
  }

  private rememberVersion(r: RuleVersionRow): void {
    const list = this.ruleVersions.get(r.text_id);
    if (list) list.push(r);
    else this.ruleVersions.set(r.text_id, [r]);
  }

  /** The stored report (JSON) of an edition's primary file, or null. */
  primaryReport(editionId: number): unknown {
    const raw = this.s.primaryReport.get({ id: editionId }) as string | undefined;
    return raw === undefined ? null : (JSON.parse(raw) as unknown);
  }

  /**
   * Keeps the published bytes of an edition's primary text file (gzip), once per sha256, and drops those of files
   * no edition stores any more; `bytes` null for a primary that is no text file (a Word document). The row is
   * written now and its gzip when compressed, off this thread (some 3 s of CPU in a full ingest): see publishedStored.
   */
  storePublished(sha256: string, bytes: Uint8Array | null, size: number): void {
    if (bytes && this.s.insertPublished.run({ sha256, size }).changes > 0) {
      // a copy: the caller's bytes may be a view of a buffer it releases (see releaseBuffer) before the compression ends
      const own = Buffer.from(bytes);
      const done = gzipAsync(own).then((compressed) => {
        // a row pruned meanwhile stays pruned
        this.s.setPublished.run({ sha256, gzip: compressed });
      });
      // failures are reported by publishedStored
      done.catch(() => {});
      this.compressing.push(done);
    }
    this.s.prunePublished.run();
  }

  /** Settles when every published file given to storePublished is stored compressed; rejects if one could not be. */
  async publishedStored(): Promise<void> {
    const failed = (await Promise.allSettled(this.compressing.splice(0))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Records a source file; a primary file becomes the edition's stored text source. */
  recordFile(f: SourceFileRow): number {
    if (f.role === 'primary' && f.editionId !== null) this.s.demoteFiles.run({ editionId: f.editionId });
    this.s.insertFile.run({
      ...f,
      report: JSON.stringify(f.report),
      ingestedAt: new Date().toISOString(),
    });
    const id = (this.s.fileBySha.get(f.sha256) as { id: number }).id;
    if (f.role === 'primary' && f.editionId !== null) this.s.setPrimary.run({ fileId: id, id: f.editionId });
    return id;
  }
}

/** Refuses a database written with another STORE_FORMAT; marks the one it writes. */
function checkFormat(db: Db): void {
  const problem = storeFormatProblem(db);
  if (problem) throw new Error(`${db.name}: ${problem}`);
  db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('format', @value)`).run({ value: STORE_FORMAT });
}

interface RuleVersionRow {
  id: number;
  number: string;
  kind: string;
  parent: string | null;
  text_id: number;
  examples: string;
  citations: string | null;
}
