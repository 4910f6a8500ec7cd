import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { withKb } from './withKb.js';

export const usage = `Usage: crkb editions [--family cr|rulings] [--db FILE] [--json]

Lists the stored editions, oldest first.`;

/** `crkb editions`: list stored editions. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(
    argv,
    { db: { type: 'string' }, json: { type: 'boolean', default: false }, family: { type: 'string', default: 'cr' } },
    usage,
    false,
  );
  if (values.family !== 'cr' && values.family !== 'rulings') throw new UsageError(`--family must be cr or rulings`, usage);
  const family = values.family;
  return withKb('editions', values.db, usage, (kb) => {
    const editions = kb.editionSummaries(family);
    if (values.json) {
      console.log(JSON.stringify(editions, null, 2));
    } else {
      for (const e of editions) {
        const set = e.setCode ? `${e.setCode} ${e.setName ?? ''}`.trim() : '';
        console.log(
          `${e.effectiveDate}${e.official ? '' : ' (unofficial)'}  ${String(e.rules).padStart(5)} rules  ${String(e.glossary).padStart(4)} glossary  ${e.files} file(s)  ${set}`,
        );
      }
      console.log(`${editions.length} editions`);
    }
    return 0;
  });
}
