export { openWritableDb, openReadOnlyDb, projectRoot, schemaDir, schemaSql } from './openDb.js';
export type { Db } from './openDb.js';
export { Writer, hash53 } from './Writer.js';
export type { EditionMeta, SourceFileRow, EditionRow } from './Writer.js';
export { Catalog, UnknownEditionError } from './Catalog.js';
export type { EditionSummary, ExportRule } from './Catalog.js';
export { Provenance } from './Provenance.js';
export type { ProvenanceEdition } from './Provenance.js';
