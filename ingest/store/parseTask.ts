import { serialize } from 'node:v8';
import { IngestError } from '../parse/IngestError.js';
import { parseInput } from './parseInput.js';
import type { PdfClaim } from './pdfReadAhead.js';
import { CopyGate } from './CopyGate.js';
import { editionDateOf, readLocalInput, sha256Hex } from './sources.js';
import { summarizeDocument, type DocumentSummary } from './summarizeDocument.js';
import { hashPair, textHashes, type TextHashes } from './textHashes.js';
import type { DecodedText, ParsedDocument } from '../../src/core/types.js';
import { isPolicyFamily, unitText } from '../../src/core/policyUnit.js';

/** One input to parse: its name (for messages), bytes and transport content type. */
export interface ParseTask {
  path: string;
  /** The input's bytes, or null for a local file the parser reads itself (so no one holds every input at once). */
  bytes: Uint8Array | null;
  /** Size in bytes (balances the parse workers' shares). */
  size: number;
  /** sha256 the file had when it was first read: a file read again must still have it. */
  sha256?: string;
  contentType: string | null;
  /** An official copy (see copyProvenance): it outranks any other. */
  official?: boolean;
  /** The PDF text cache's folder (see pdfTextCache), for a run that keeps one. */
  pdfCache?: string | null;
  /** For a PDF being read ahead into that cache: its claim (see startPdfReadAhead). */
  readAhead?: PdfClaim;
}

function bytesOf(task: ParseTask): Uint8Array {
  if (task.bytes !== null) return task.bytes;
  const { bytes, sha256 } = readLocalInput({ kind: 'file', location: task.path });
  if (task.sha256 !== undefined && sha256 !== task.sha256) {
    throw new IngestError(task.path, 'changed while being ingested (its sha256 differs from when it was first read)');
  }
  return bytes;
}

/** A parsed input without its decoded text, plus how faithful its typography is. */
export type ParseOutcome =
  | {
      ok: true;
      doc: ParsedDocument;
      decoded: Omit<DecodedText, 'text'>;
      fidelity: number[];
      /** hash53 of each text and of its normalized form, for the writer. */
      hashes: TextHashes;
      /** The input's bytes when it is a text file (kept with the edition it becomes, see ParsedCopy.published). */
      bytes: Uint8Array | null;
    }
  | { ok: false; source: string; reason: string };

/** A parsed document with its text hashes (see textHashes). */
export interface ParsedCopy {
  doc: ParsedDocument;
  hashes: TextHashes;
  /**
   * The published bytes of a text file (see isPublishedText); null for any other format. Not compressed yet:
   * the thread that stores them compresses only the copy it stores (schema/050_files.sql keeps them gzipped).
   */
  published: Uint8Array | null;
}

/**
 * A parse outcome as the ingest's main thread receives it: a complete document as its summary and
 * a serialized copy (v8.serialize of a ParsedCopy), read only if it is the copy stored; a fragment whole.
 */
export type ParseReply =
  | { ok: true; complete: true; summary: DocumentSummary; decoded: Omit<DecodedText, 'text'>; fidelity: number[]; copy: Uint8Array | null }
  | { ok: true; complete: false; doc: ParsedDocument; decoded: Omit<DecodedText, 'text'> }
  | { ok: false; source: string; reason: string };

/**
 * The reply for a parse outcome of `task` (see ParseReply); `gate` (kept by the caller across
 * inputs) leaves out the document of a copy that cannot be the one stored.
 */
export function replyOf(o: ParseOutcome, task: ParseTask, gate = new CopyGate()): ParseReply {
  if (!o.ok) return o;
  const { doc, hashes, decoded, fidelity, bytes } = o;
  if (!doc.complete) return { ok: true, complete: false, doc, decoded };
  const date = editionDateOf(task.path, doc.effectiveDate);
  const stored =
    task.sha256 === undefined ||
    gate.admits(date === null ? null : `${doc.family}|${date}`, { official: task.official ?? false, fidelity, sha256: task.sha256 });
  // only a copy that may be stored carries its bytes, and only a published text file's
  const copy = stored ? serialize({ doc, hashes, published: isPublishedText(doc.format) ? bytes : null } satisfies ParsedCopy) : null;
  return { ok: true, complete: true, summary: summarizeDocument(doc, hashes), decoded, fidelity, copy };
}

/** Whether a document of this format is read from a published text file, whose bytes are stored (not a PDF, Word document or HTML page). */
export function isPublishedText(format: string): boolean {
  return format.endsWith('-text');
}

/**
 * Parses one input; rejections come back as values so they can cross a worker boundary.
 * `pair` gives a text's hashes (hashPair), possibly memoized by the caller.
 */
export async function parseTask(task: ParseTask, pair: (text: string) => readonly [number, number] = (t) => hashPair(t)): Promise<ParseOutcome> {
  try {
    const bytes = bytesOf(task);
    const cache = task.pdfCache ? { dir: task.pdfCache, sha256: task.sha256 ?? sha256Hex(bytes), readAhead: task.readAhead } : null;
    const { doc, decoded } = await parseInput(task.path, bytes, task.contentType, cache);
    if (isPolicyFamily(doc.family)) storablePolicy(doc);
    const t = decoded.text;
    const typographic = t.match(/[’“”—–™]/g)?.length ?? 0;
    // characters lost in some conversion: " ? " for a dash, U+FFFD for anything
    const damage = t.includes(' ? ') || t.includes('\uFFFD') ? (t.match(/ \? |\uFFFD/g)?.length ?? 0) : 0;
    // A text file is preferred to a Word document of the same quality: its line numbers are the published file's.
    // An HTML rendition of a tournament document is a third party's (the MTG Familiar app's, see the policy
    // folder's README): any PDF, Word or text copy of the same edition outranks it, as it outranks a damaged copy.
    const fidelity = [
      decoded.damage || doc.format === 'policy-html' ? -1 : 0,
      -doc.accounting.unaccounted.length,
      -damage,
      -doc.warnings.length,
      decoded.encoding === 'word' ? 0 : 1,
      typographic,
    ];
    const meta: Omit<DecodedText, 'text'> = { encoding: decoded.encoding, lineEndings: decoded.lineEndings };
    if (decoded.damage) meta.damage = decoded.damage;
    if (decoded.ambiguous) meta.ambiguous = decoded.ambiguous;
    return { ok: true, doc, decoded: meta, fidelity, hashes: textHashes(doc, pair), bytes: decoded.encoding === 'word' ? null : bytes };
  } catch (e) {
    if (e instanceof IngestError) return { ok: false, source: e.source, reason: e.reason };
    return { ok: false, source: task.path, reason: `parser failure: ${(e as Error).message}` };
  }
}

/** A tournament document as it is stored: each unit's title and penalty become its text's first line (see unitText). */
function storablePolicy(doc: ParsedDocument): void {
  for (const r of doc.rules) {
    r.text = unitText(r.title ?? '', r.penalty, r.text);
    delete r.title;
    delete r.penalty;
  }
}
