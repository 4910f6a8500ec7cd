import { FAMILIES } from '../core/families.js';
import { familyArg } from '../query/edgeArgs.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { cliArg, withKb } from './withKb.js';

export const usage = `Usage: crkb export --edition DATE|latest [--family ${FAMILIES.join('|')}] [--db FILE]

Prints one edition as JSON: {"effectiveDate", "rules": [{"number", "parent",
"text", "examples"}], "glossary": [{"term", "definition"}]}. A DATE that is not
an effective date means the edition in force on that day.`;

/** `crkb export`: print one edition as JSON. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { edition: { type: 'string' }, db: { type: 'string' }, family: { type: 'string', default: 'cr' } }, usage, false);
  if (!values.edition) throw new UsageError('--edition is required', usage);
  const family = cliArg(() => familyArg(values.family, '--family'), usage);
  return withKb('export', values.db, usage, (kb) => {
    const { edition } = kb.resolveEdition(values.edition, family, '--edition');
    process.stdout.write(JSON.stringify(kb.exportEdition(edition)) + '\n');
    return 0;
  });
}
