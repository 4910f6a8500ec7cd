import type { Writer } from '../src/db/Writer.js';
import { extractReferences } from '../src/engine/references.js';

/** Derives what ingest stores beside the texts: cross-references of every new text. */
export function storeDerived(writer: Writer): void {
  const body = writer.db.prepare('SELECT body FROM texts WHERE id = ?').pluck();
  const insert = writer.db.prepare(
    'INSERT OR REPLACE INTO text_refs (text_id, ord, target, kind, start, "end") VALUES (@textId, @ord, @target, @kind, @start, @end)',
  );
  for (const textId of writer.newTextIds) {
    const refs = extractReferences(body.get(textId) as string);
    refs.forEach((r, ord) => insert.run({ textId, ord, target: r.target, kind: r.kind, start: r.start, end: r.end }));
  }
}
