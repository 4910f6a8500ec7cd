import { FAMILIES } from '../core/families.js';
import { isPolicyFamily } from '../core/policyUnit.js';
import { familyArg } from '../query/edgeArgs.js';
import { parseOptions } from './options.js';
import { cliArg, withKb } from './withKb.js';

export const usage = `Usage: crkb editions [--family ${FAMILIES.join('|')}] [--db FILE] [--json]

Lists the stored editions of a document (default cr, the Comprehensive Rules;
rulings, the 1999 Rulings Summaries; mtr, ipg and jar, the tournament
documents), oldest first.`;

/** `crkb editions`: list stored editions. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(
    argv,
    { db: { type: 'string' }, json: { type: 'boolean', default: false }, family: { type: 'string', default: 'cr' } },
    usage,
    false,
  );
  const family = cliArg(() => familyArg(values.family, '--family'), usage);
  return withKb('editions', values.db, usage, (kb) => {
    const editions = kb.editionSummaries(family);
    if (values.json) {
      console.log(JSON.stringify(editions, null, 2));
    } else {
      for (const e of editions) {
        const set = e.setCode ? `${e.setCode} ${e.setName ?? ''}`.trim() : '';
        // a tournament document has sections and no glossary
        const counts = isPolicyFamily(family)
          ? `${String(e.rules).padStart(5)} sections`
          : `${String(e.rules).padStart(5)} rules  ${String(e.glossary).padStart(4)} glossary`;
        console.log(`${e.effectiveDate}${e.official ? '' : ' (unofficial)'}  ${counts}  ${e.files} file(s)  ${set}`);
      }
      console.log(`${editions.length} editions`);
    }
    return 0;
  });
}
