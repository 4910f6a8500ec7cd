import { basename } from 'node:path';
import { decodeCodePage } from '../core/codePages.js';
import type { EditionInfo } from '../core/records.js';
import type { Snapshot } from '../db/Snapshot.js';
import { QueryError } from './QueryError.js';

/** A stored edition's published text file, as /v1/files serves it. */
export interface PublishedFile {
  /** The bytes sent: the file as published, or (normalized) its text in UTF-8 with LF line endings and no BOM. */
  body: Buffer;
  contentType: string;
  /** sha256 (hex) of the file as published, whichever form is sent. */
  sha256: string;
  /** The file's name where it was published (or archived). */
  name: string;
  /** The encoding ingest read it in (utf-8, windows-1252…). */
  encoding: string;
}

// The IANA charset of each encoding ingest detects: it read the whole file in it, so the label is true of every byte.
const CHARSET = new Map([
  ['ascii', 'us-ascii'],
  ['utf-8', 'utf-8'],
  ['utf-8-bom', 'utf-8'],
  ['utf-16le', 'utf-16le'],
  ['utf-16be', 'utf-16be'],
  ['windows-1252', 'windows-1252'],
  ['mac-roman', 'macintosh'],
]);

const LINE_ENDINGS: Array<[string, RegExp]> = [
  ['crlf', /\r\n/g],
  ['cr', /\r/g],
  ['nel', /\u0085/g],
  ['ls', /\u2028/g],
  ['ps', /\u2029/g],
];

/** The published text in UTF-8 terms: decoded in its encoding, without a BOM, every recorded line ending made "\n". */
function normalizedText(bytes: Uint8Array, encoding: string, lineEndings: readonly string[]): string {
  const charset = CHARSET.get(encoding);
  if (!charset) throw new Error(`no charset for encoding ${encoding}`);
  // (Node's TextDecoder reads windows-1252 as ISO-8859-1: the single-byte code pages go through crkb's own tables)
  let text =
    encoding === 'windows-1252' || encoding === 'mac-roman'
      ? decodeCodePage(bytes, encoding)
      : new TextDecoder(charset === 'us-ascii' ? 'utf-8' : charset).decode(bytes);
  // CRLF before a bare CR; a line-ending character the file does not use as one is text
  for (const [e, re] of LINE_ENDINGS) if (lineEndings.includes(e)) text = text.replace(re, '\n');
  return text;
}

/** The name of a file at an address or path, as published ("MagicCompRules 20230203.docx"). */
function fileName(location: string): string {
  const name = basename(location);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** The Content-Type of a published file in an encoding: text/plain with its charset (utf-16 when the file starts with a BOM). */
function contentTypeOf(bytes: Uint8Array, encoding: string): string {
  const charset = CHARSET.get(encoding);
  if (!charset) return 'application/octet-stream';
  const bom = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  return `text/plain; charset=${charset.startsWith('utf-16') && bom ? 'utf-16' : charset}`;
}

/**
 * The text file an edition was stored from, exactly as published (or, `normalized`, as UTF-8 with LF line endings);
 * NOT_FOUND when the edition was read from a Word document (no text file is stored) or the database predates them.
 */
export function publishedFile(s: Snapshot, edition: EditionInfo, normalized: boolean): PublishedFile {
  const { primary } = s.sourcesOf(edition.id);
  const date = edition.effectiveDate;
  if (primary === null) throw new QueryError('NOT_FOUND', `the ${date} edition has no stored source file`, { edition: date });
  const name = fileName(primary.url ?? primary.path);
  if (primary.encoding === 'word') {
    const before = s.editions.filter((e) => e.family === 'cr' && e.official && e.effectiveDate < date && s.sourcesOf(e.id).primary?.encoding !== 'word').at(-1);
    const other = before ? `; the newest edition before it with a text file is ${before.effectiveDate}: /v1/files/${before.effectiveDate}.txt` : '';
    throw new QueryError(
      'NOT_FOUND',
      `the ${date} edition is stored from a Word document (${name}), not a text file: no text file of it is stored (its rules: /v1/editions/${date}.json)${other}`,
      { edition: date },
    );
  }
  const stored = s.publishedBytes(primary.sha256);
  if (stored === undefined)
    throw new QueryError('NOT_FOUND', 'this database was built before published files were stored: ingest again to serve them', { edition: date });
  if (stored === null) throw new QueryError('NOT_FOUND', `the published file of the ${date} edition (${name}) is not stored`, { edition: date });
  // node:zlib and node:crypto on first use, not at import: every command imports this module, few serve a file (6 ms a call)
  const bytes = process.getBuiltinModule('node:zlib').gunzipSync(stored.gzip);
  // what is served is what was published: a stored copy that does not hash to its sha256 is never sent
  if (process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex') !== primary.sha256)
    throw new Error(`source_bytes of ${primary.sha256} do not match their sha256`);
  if (!normalized) return { body: bytes, contentType: contentTypeOf(bytes, primary.encoding), sha256: primary.sha256, name, encoding: primary.encoding };
  const text = normalizedText(bytes, primary.encoding, primary.lineEndings);
  return { body: Buffer.from(text, 'utf8'), contentType: 'text/plain; charset=utf-8', sha256: primary.sha256, name, encoding: primary.encoding };
}
