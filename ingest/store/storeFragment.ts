import { Catalog, UnknownEditionError } from '../../src/db/Catalog.js';
import { Provenance } from '../../src/db/Provenance.js';
import type { Writer } from './Writer.js';
import { identify, normHash, type ProvenanceReport } from './identify.js';
import { IngestError } from '../parse/IngestError.js';
import { labelDateOf } from './sources.js';
import type { DecodedText, DocumentFamily, ParsedDocument } from '../../src/core/types.js';

/** A parsed fragment (excerpt, scraped page) on its way into the store. */
export interface FragmentInput {
  path: string;
  sha256: string;
  size: number;
  decoded: Omit<DecodedText, 'text'>;
  doc: ParsedDocument;
}

/** What became of a fragment: which edition it was attached to and how well it matched. */
export interface FragmentReport {
  path: string;
  format: string;
  family: DocumentFamily;
  rules: number;
  /** Effective date of the edition it was attached to. */
  attachedTo: string | null;
  /** Label of that edition ('' for an official one, 'unofficial:<sha8>' for its own). */
  label: string;
  official: boolean;
  /** 'identified' by matching, 'option' (--edition), or 'unofficial' (matched no edition well enough). */
  attachedBy: 'identified' | 'option' | 'unofficial';
  /** Best contiguous range of official editions whose text it matches, or null. */
  range: { from: string; to: string } | null;
  /** Rules matching the compared edition exactly or nearly, of `total` distinct numbers. */
  matched: number;
  total: number;
  /** Rules that are not an exact match of the compared edition. */
  disagreements: number;
  /** One line: "matches 2020-09-25 … 2021-06-18 on 24 of 24 rules; 0 disagreements". */
  summary: string;
}

/** Below this share of exact + near matches, a fragment becomes its own unofficial edition. */
const ATTACH_THRESHOLD = 0.8;

/** Provenance of a parsed document against the stored official editions of its family (read-only). */
export function provenanceOf(provenance: Provenance, doc: ParsedDocument, referenceId?: number): ProvenanceReport {
  const rules = doc.rules.map((r) => ({ number: r.number, text: r.text }));
  const editions = provenance.editionTexts(
    doc.family,
    rules.map((r) => ({ number: r.number, normH: normHash(r.text) })),
  );
  return identify(rules, editions, referenceId === undefined ? {} : { referenceId });
}

/**
 * Attaches a fragment to the edition it is identified as (or `edition`, any
 * date meaning the edition in force then, or 'latest'), never overwriting
 * official text. A fragment matching no edition well enough is stored as its
 * own unofficial edition. Throws IngestError to refuse the fragment.
 */
export function storeFragment(writer: Writer, input: FragmentInput, edition: string | null): FragmentReport {
  const { doc } = input;
  if (doc.rules.length === 0) throw new IngestError(input.path, 'no rules found');
  const provenance = new Provenance(writer.db);
  let asked: { id: number; effectiveDate: string } | null = null;
  if (edition !== null) {
    try {
      asked = new Catalog(writer.db).resolveEdition(edition, doc.family);
    } catch (e) {
      if (e instanceof UnknownEditionError) throw new IngestError(input.path, `--edition ${edition}: ${e.message}`);
      throw e;
    }
  }
  const report = provenanceOf(provenance, doc, asked?.id);
  const ref = report.rules.length > 0 ? report.reference : null;
  const refScore = ref ? report.editions.find((e) => e.editionId === ref.editionId) : undefined;
  let attachedBy: FragmentReport['attachedBy'];
  let editionId: number;
  let attachedTo: string;
  let label = '';
  let summary = report.summary;
  if (asked) {
    attachedBy = 'option';
    editionId = asked.id;
    attachedTo = asked.effectiveDate;
    summary = `attached to ${asked.effectiveDate} as asked (--edition ${edition}); ${summary}`;
  } else if (ref && report.matchRatio >= ATTACH_THRESHOLD) {
    attachedBy = 'identified';
    editionId = ref.editionId;
    attachedTo = ref.effectiveDate;
  } else {
    attachedBy = 'unofficial';
    label = `unofficial:${input.sha256.slice(0, 8)}`;
    const { date, why } = unofficialDate(input);
    attachedTo = date;
    editionId = writer.storeEdition(
      {
        family: doc.family,
        effectiveDate: date,
        official: false,
        label,
        setCode: null,
        setName: null,
        warnings: [`${input.path}: unofficial: ${report.summary}; dated ${date} (${why})`],
      },
      doc,
    );
    const pct = Math.round(report.matchRatio * 100);
    summary = `${summary}; ${pct}% < ${ATTACH_THRESHOLD * 100}%: stored as unofficial edition ${date} (${label}, ${why})`;
  }
  const fileId = writer.recordFile({
    sha256: input.sha256,
    path: input.path,
    size: input.size,
    encoding: input.decoded.encoding,
    lineEndings: input.decoded.lineEndings.join(','),
    format: doc.format,
    labelDate: labelDateOf(input.path),
    editionId,
    role: 'fragment',
    differing: report.disagreements.length,
    report: { summary, attachedBy, range: report.best ? { from: report.best.from, to: report.best.to } : null },
  });
  const status = new Map(report.rules.map((r) => [r.number, r.status]));
  provenance.storeSource(
    {
      fileId,
      family: doc.family,
      editionId,
      attachedBy,
      referenceEditionId: ref?.editionId ?? null,
      total: report.total,
      matched: refScore ? refScore.exact + refScore.near : 0,
      exact: refScore?.exact ?? 0,
      near: refScore?.near ?? 0,
      rangeFrom: report.best?.from ?? null,
      rangeTo: report.best?.to ?? null,
      summary,
      report,
    },
    doc.rules.map((r, ord) => ({
      ord,
      number: r.number,
      textId: writer.internText(r.text),
      examples: r.examples.map((e) => writer.internText(e)),
      status: status.get(r.number) ?? 'absent',
    })),
  );
  return {
    path: input.path,
    format: doc.format,
    family: doc.family,
    rules: doc.rules.length,
    attachedTo,
    label,
    official: attachedBy !== 'unofficial',
    attachedBy,
    range: report.best ? { from: report.best.from, to: report.best.to } : null,
    matched: refScore ? refScore.exact + refScore.near : 0,
    total: report.total,
    disagreements: report.disagreements.length,
    summary,
  };
}

/** An unofficial edition's date: the one it states, its file-name date, its latest citation (rulings), or today. */
function unofficialDate(input: FragmentInput): { date: string; why: string } {
  if (input.doc.effectiveDate) return { date: input.doc.effectiveDate, why: 'the date it states' };
  const label = labelDateOf(input.path);
  if (label) return { date: label, why: 'its file-name date' };
  let latest: string | null = null;
  for (const r of input.doc.rules) for (const c of r.citations ?? []) if (c.date && (latest === null || c.date > latest)) latest = c.date;
  if (latest) return { date: latest, why: 'its latest citation date' };
  return { date: new Date().toISOString().slice(0, 10), why: 'no date found: today' };
}
