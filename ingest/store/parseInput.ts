import { parseSource, type ParsedSource } from '../parse/parseSource.js';
import { parseWordDocument } from '../parse/parseWordDocument.js';
import { readWordDocument, wordKindOf } from './readWordDocument.js';

/**
 * Parses one input of any supported kind: Word documents are read into paragraphs (the
 * library loading happens here) and parsed; everything else is decoded and parsed as text.
 * Throws IngestError naming `source` when the input cannot be used.
 */
export async function parseInput(source: string, bytes: Uint8Array, contentType: string | null = null): Promise<ParsedSource> {
  const kind = wordKindOf(source, bytes);
  if (kind === null) return parseSource(source, bytes, contentType);
  return parseWordDocument(source, await readWordDocument(source, bytes, kind), kind);
}
