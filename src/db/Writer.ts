import { createHash } from 'node:crypto';
import type { DocumentFamily, ParsedDocument } from '../../ingest/types.js';
import { normalizeText } from '../../ingest/normalize.js';
import type { Db } from './openDb.js';

/** 53-bit hash of a string, stored as an exact JS number. */
export function hash53(s: string): number {
  const d = createHash('sha1').update(s).digest();
  return d.readUIntBE(0, 6) * 32 + (d[6]! >> 3);
}

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
  private readonly textIds = new Map<string, number>();
  private readonly ruleVersionIds = new Map<string, number>();
  private readonly glossaryVersionIds = new Map<string, number>();
  /** Text ids inserted by this writer (new texts need references extracted). */
  readonly newTextIds: number[] = [];
  /** normalizeText of each new text, by id, for whoever derives data from them next (lineage). */
  readonly normalized = new Map<number, string>();
  /** Id of the first text not yet in the full-text index, or null when all are. */
  private ftsFrom: number | null = null;

  private readonly s;

  constructor(readonly db: Db) {
    this.s = {
      insertText: db.prepare('INSERT INTO texts (h, norm_h, body) VALUES (@h, @normH, @body)'),
      // New texts are indexed in one statement (see indexNewTexts), not row by row.
      insertFts: db.prepare('INSERT INTO texts_fts (rowid, body) SELECT id, body FROM texts WHERE id >= @from'),
      insertRuleVersion: db.prepare(
        `INSERT INTO rule_versions (number, kind, parent, text_id, examples, citations)
         VALUES (@number, @kind, @parent, @textId, @examples, @citations)`,
      ),
      insertGlossaryVersion: db.prepare('INSERT INTO glossary_versions (term, text_id) VALUES (@term, @textId)'),
      findEdition: db.prepare(
        `SELECT id, family, effective_date AS effectiveDate, official, label, primary_file_id AS primaryFileId
         FROM editions WHERE family = @family AND effective_date = @effectiveDate AND label = @label`,
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
      // One statement per edition: ord is the position in the JSON array of version ids.
      insertEditionRules: db.prepare(
        'INSERT INTO edition_rules (edition_id, ord, version_id) SELECT @editionId, key, value FROM json_each(@versionIds)',
      ),
      insertPart: db.prepare(
        'INSERT INTO edition_parts (edition_id, ord, number, title) VALUES (@editionId, @ord, @number, @title)',
      ),
      insertEditionGlossary: db.prepare(
        'INSERT INTO edition_glossary (edition_id, ord, version_id) VALUES (@editionId, @ord, @versionId)',
      ),
      insertAbilityWord: db.prepare(
        'INSERT INTO ability_words (edition_id, ord, word) VALUES (@editionId, @ord, @word)',
      ),
      insertIndex: db.prepare(
        'INSERT INTO edition_index (edition_id, ord, topic, targets) VALUES (@editionId, @ord, @topic, @targets)',
      ),
      insertFile: db.prepare(
        `INSERT INTO source_files (sha256, path, size, encoding, line_endings, format, label_date, edition_id, role, differing, report, ingested_at)
         VALUES (@sha256, @path, @size, @encoding, @lineEndings, @format, @labelDate, @editionId, @role, @differing, @report, @ingestedAt)
         ON CONFLICT (sha256) DO UPDATE SET path = excluded.path, edition_id = excluded.edition_id, role = excluded.role,
           differing = excluded.differing, report = excluded.report`,
      ),
      demoteFiles: db.prepare(
        `UPDATE source_files SET role = 'duplicate' WHERE edition_id = @editionId AND role = 'primary'`,
      ),
      fileBySha: db.prepare('SELECT id FROM source_files WHERE sha256 = ?'),
      primaryReport: db.prepare(`SELECT report FROM source_files WHERE edition_id = @id AND role = 'primary'`).pluck(),
    };
    for (const r of db.prepare('SELECT id, body FROM texts').iterate() as Iterable<{ id: number; body: string }>) {
      this.textIds.set(r.body, r.id);
    }
    const rv = db.prepare('SELECT id, number, kind, parent, text_id, examples, citations FROM rule_versions');
    for (const r of rv.iterate() as Iterable<RuleVersionRow>) {
      this.ruleVersionIds.set(ruleVersionKey(r.number, r.kind, r.parent, r.text_id, r.examples, r.citations), r.id);
    }
    for (const r of db.prepare('SELECT id, term, text_id FROM glossary_versions').iterate() as Iterable<{
      id: number;
      term: string;
      text_id: number;
    }>) {
      this.glossaryVersionIds.set(`${r.term}\u0000${r.text_id}`, r.id);
    }
  }

  /** Returns the id of a text, storing it (and indexing it for search) if new. */
  internText(body: string): number {
    const known = this.textIds.get(body);
    if (known !== undefined) return known;
    const norm = normalizeText(body);
    const id = Number(this.s.insertText.run({ h: hash53(body), normH: hash53(norm), body }).lastInsertRowid);
    this.textIds.set(body, id);
    this.newTextIds.push(id);
    this.normalized.set(id, norm);
    this.ftsFrom ??= id;
    return id;
  }

  /** Adds the texts stored since the last call to the full-text index; call before reading search results. */
  indexNewTexts(): void {
    if (this.ftsFrom === null) return;
    // Text ids only grow (texts are never deleted), so everything from ftsFrom on is new.
    this.s.insertFts.run({ from: this.ftsFrom });
    this.ftsFrom = null;
  }

  /** Finds a stored edition. */
  findEdition(family: DocumentFamily, effectiveDate: string, label = ''): EditionRow | undefined {
    return this.s.findEdition.get({ family, effectiveDate, label }) as EditionRow | undefined;
  }

  /** Stores (or replaces the content of) one edition from a parsed document; returns its id. */
  storeEdition(meta: EditionMeta, doc: ParsedDocument): number {
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
      for (const st of [this.s.clearRules, this.s.clearParts, this.s.clearGlossary, this.s.clearAbilityWords, this.s.clearIndex]) {
        st.run({ id });
      }
    } else {
      id = Number(this.s.insertEdition.run(row).lastInsertRowid);
    }
    const versionIds: number[] = [];
    for (const rule of doc.rules) {
      const textId = this.internText(rule.text);
      const examples = JSON.stringify(rule.examples.map((e) => this.internText(e)));
      const citations = rule.citations && rule.citations.length > 0 ? JSON.stringify(rule.citations) : null;
      const key = ruleVersionKey(rule.number, rule.kind, rule.parent, textId, examples, citations);
      let versionId = this.ruleVersionIds.get(key);
      if (versionId === undefined) {
        versionId = Number(
          this.s.insertRuleVersion.run({
            number: rule.number,
            kind: rule.kind,
            parent: rule.parent,
            textId,
            examples,
            citations,
          }).lastInsertRowid,
        );
        this.ruleVersionIds.set(key, versionId);
      }
      versionIds.push(versionId);
    }
    this.s.insertEditionRules.run({ editionId: id, versionIds: JSON.stringify(versionIds) });
    doc.parts.forEach((p, ord) => this.s.insertPart.run({ editionId: id, ord, number: p.number, title: p.title }));
    doc.glossary.forEach((g, ord) => {
      const textId = this.internText(g.definition);
      const key = `${g.term}\u0000${textId}`;
      let versionId = this.glossaryVersionIds.get(key);
      if (versionId === undefined) {
        versionId = Number(this.s.insertGlossaryVersion.run({ term: g.term, textId }).lastInsertRowid);
        this.glossaryVersionIds.set(key, versionId);
      }
      this.s.insertEditionGlossary.run({ editionId: id, ord, versionId });
    });
    doc.abilityWords.forEach((word, ord) => this.s.insertAbilityWord.run({ editionId: id, ord, word }));
    doc.index.forEach((e, ord) =>
      this.s.insertIndex.run({ editionId: id, ord, topic: e.topic, targets: JSON.stringify(e.targets) }),
    );
    this.indexNewTexts();
    return id;
  }

  /** The stored report (JSON) of an edition's primary file, or null. */
  primaryReport(editionId: number): unknown {
    const raw = this.s.primaryReport.get({ id: editionId }) as string | undefined;
    return raw === undefined ? null : (JSON.parse(raw) as unknown);
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

interface RuleVersionRow {
  id: number;
  number: string;
  kind: string;
  parent: string | null;
  text_id: number;
  examples: string;
  citations: string | null;
}

function ruleVersionKey(
  number: string,
  kind: string,
  parent: string | null,
  textId: number,
  examples: string,
  citations: string | null,
): string {
  return `${number}\u0000${kind}\u0000${parent ?? ''}\u0000${textId}\u0000${examples}\u0000${citations ?? ''}`;
}
