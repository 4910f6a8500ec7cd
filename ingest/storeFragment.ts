import type { Writer } from '../src/db/Writer.js';
import { IngestError } from './IngestError.js';
import type { DecodedText, ParsedDocument } from './types.js';

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
  rules: number;
  /** Effective date of the edition it was attached to. */
  attachedTo: string | null;
  official: boolean;
  summary: string;
}

/**
 * Attaches a fragment to the edition it is identified as (or `edition`), never
 * overwriting official text.
 */
export function storeFragment(_writer: Writer, input: FragmentInput, _edition: string | null): FragmentReport {
  // Provenance matching lands with the scraped-sources work (issue 3); until then fragments are refused.
  throw new IngestError(input.path, `a ${input.doc.format} excerpt (${input.doc.rules.length} rules), not a whole edition: fragment ingest is not supported yet`);
}
