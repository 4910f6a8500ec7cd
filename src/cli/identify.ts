import { resolve } from 'node:path';
import { rangeText, type ProvenanceReport } from '../../ingest/store/identify.js';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { parseInput } from '../../ingest/store/parseInput.js';
import { fetchInput, readLocalInput } from '../../ingest/store/sources.js';
import { provenanceOf } from '../../ingest/store/storeFragment.js';
import { Provenance } from '../db/Provenance.js';
import { storeFormatProblem } from '../db/storeFormat.js';
import { openReadOnlyDb } from '../db/openDb.js';
import { defaultDbFile, parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { existingDbFile } from './withKb.js';

export const usage = `Usage: crkb identify FILE|URL [--db FILE] [--json]

Compares the rules of a file or page (a fragment, a scraped page, a Markdown
rendering, or a whole edition) with the stored editions of its family and
prints the range of editions whose text it matches, and every rule where it
disagrees with the best of them. Stores nothing.

Exit status: 0 when identified, 2 when the input is refused or matches no edition.`;

/** `crkb identify`: print the provenance report of one input without storing it. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    { db: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    usage,
  );
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('give exactly one FILE or URL', usage);
  const arg = positionals[0]!;
  const file = existingDbFile(values.db, usage);
  const db = openReadOnlyDb(file);
  // fragments are matched by hashes of their normalized texts: they must be computed as the database's were
  const problem = storeFormatProblem(db);
  if (problem) {
    db.close();
    throw new UsageError(`${values.db ?? defaultDbFile()}: ${problem}`, usage);
  }
  try {
    let source = arg;
    let report: ProvenanceReport;
    let family: string;
    let format: string;
    try {
      const input = /^https?:\/\//i.test(arg)
        ? await fetchInput({ kind: 'url', location: arg })
        : readLocalInput({ kind: 'file', location: (source = resolve(arg)) });
      // read as ingest reads it: Word documents too
      const { doc } = await parseInput(source, input.bytes, input.contentType);
      family = doc.family;
      format = doc.format;
      report = provenanceOf(new Provenance(db), doc);
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      if (values.json) console.log(JSON.stringify({ source: e.source, error: e.reason }, null, 2));
      else console.error(`crkb identify: ${e.source}: ${e.reason}`);
      return 2;
    }
    if (values.json) console.log(JSON.stringify({ source, family, format, ...report }, null, 2));
    else console.log(formatProvenance(source, family, format, report));
    return report.best ? 0 : 2;
  } finally {
    db.close();
  }
}

/** Human-readable provenance report. */
export function formatProvenance(source: string, family: string, format: string, r: ProvenanceReport): string {
  const out = [`${source} (${family} ${format}, ${r.total} rules): ${r.summary}`];
  if (r.best) {
    const pct = Math.round(r.matchRatio * 100);
    out.push(`best: ${rangeText(r.best)} (${r.best.editions} edition${r.best.editions === 1 ? '' : 's'}; ${r.best.exact} exact, ${r.best.near} near; ${pct}%)`);
    for (const o of r.alsoMatches) out.push(`also: ${rangeText(o)} (${o.editions} editions)`);
  }
  if (r.reference && r.disagreements.length > 0) {
    out.push(`disagreements with ${r.reference.effectiveDate}:`);
    for (const d of r.disagreements) {
      const diff = d.diff
        ? d.diff.map((s) => (s.op === 'equal' ? s.text : s.op === 'delete' ? `[-${s.text}-]` : `{+${s.text}+}`)).join('')
        : d.status === 'absent'
          ? `(not in ${r.reference.effectiveDate}) ${d.text}`
          : d.text;
      out.push(`  ${d.number} ${d.status}${d.status === 'absent' ? '' : ` (${Math.round(d.similarity * 100)}%)`}: ${diff}`);
    }
  }
  return out.join('\n');
}
