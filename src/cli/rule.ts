import { DOCUMENT_FAMILIES } from '../core/families.js';
import { familyArg, ruleOrRangeArg } from '../query/edgeArgs.js';
import { familyInQuery } from '../query/familyQuery.js';
import { formatLookup } from '../query/chatText.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { cliArg, withKb } from './withKb.js';

export const usage = `Usage: crkb rule NUMBER [--edition DATE|latest|SET] [--family ${DOCUMENT_FAMILIES.join('|')}] [--examples] [--db FILE]

Prints a rule with its subrules ("702.19", "702.19b", "601.2a-h") as it reads
in an edition (default: latest; any date means the edition in force that day;
a set code such as AFR the edition published with that set). A tournament
document's section: crkb rule "ipg 2.1", crkb rule 4.2 --family mtr, crkb rule "jar 1.1"
(the JAR's numbers are crkb's, its units' positions).`;

/** `crkb rule`: print one rule (or range) of an edition. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    { db: { type: 'string' }, edition: { type: 'string' }, family: { type: 'string' }, examples: { type: 'boolean', default: false } },
    usage,
  );
  if (positionals.length !== 1) throw new UsageError('give exactly one rule NUMBER', usage);
  const family = cliArg(() => familyArg(values.family, '--family'), usage);
  const cr = (familyInQuery(positionals[0]!).family ?? family) === 'cr';
  const q = cr ? cliArg(() => ruleOrRangeArg(positionals[0]!, 'NUMBER'), usage) : positionals[0]!;
  return withKb('rule', values.db, usage, (kb) => {
    const scope = cr ? { edition: kb.resolveEdition(values.edition, 'cr', '--edition').edition, query: q } : kb.lookupScope(values.edition, q, family);
    const a = kb.lookup(scope.edition, scope.query);
    console.log(formatLookup(a, 'text', (r) => kb.examples(r), { examples: values.examples, fullUrl: '', full: true }));
    return 0;
  });
}
