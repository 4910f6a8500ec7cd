import { Catalog, UnknownEditionError } from '../db/Catalog.js';
import { openDbOption } from './openDbOption.js';
import { defaultDbFile, parseOptions } from './options.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb export --edition DATE|latest [--family cr|rulings] [--db FILE]

Prints one edition as JSON: {"effectiveDate", "rules": [{"number", "parent",
"text", "examples"}], "glossary": [{"term", "definition"}]}. A DATE that is not
an effective date means the edition in force on that day.`;

/** `crkb export`: print one edition as JSON. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(
    argv,
    { edition: { type: 'string' }, db: { type: 'string' }, family: { type: 'string', default: 'cr' } },
    usage,
    false,
  );
  if (!values.edition) throw new UsageError('--edition is required', usage);
  if (values.family !== 'cr' && values.family !== 'rulings') throw new UsageError(`--family must be cr or rulings`, usage);
  const db = openDbOption(values.db ?? defaultDbFile(), usage);
  try {
    const catalog = new Catalog(db);
    let edition;
    try {
      edition = catalog.resolveEdition(values.edition, values.family);
    } catch (e) {
      if (e instanceof UnknownEditionError) throw new UsageError(`--edition ${values.edition}: ${e.message}`, usage);
      throw e;
    }
    const out = {
      effectiveDate: edition.effectiveDate,
      rules: catalog.exportRules(edition.id),
      glossary: catalog.exportGlossary(edition.id),
    };
    process.stdout.write(JSON.stringify(out) + '\n');
    return 0;
  } finally {
    db.close();
  }
}
