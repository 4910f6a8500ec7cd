import { ruleOrRangeArg } from '../query/edgeArgs.js';
import { formatLookup } from '../query/chatText.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { cliArg, withKb } from './withKb.js';

export const usage = `Usage: crkb rule NUMBER [--edition DATE|latest|SET] [--examples] [--db FILE]

Prints a rule with its subrules ("702.19", "702.19b", "601.2a-h") as it reads
in an edition (default: latest; any date means the edition in force that day;
a set code such as AFR the edition published with that set).`;

/** `crkb rule`: print one rule (or range) of an edition. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    { db: { type: 'string' }, edition: { type: 'string' }, examples: { type: 'boolean', default: false } },
    usage,
  );
  if (positionals.length !== 1) throw new UsageError('give exactly one rule NUMBER', usage);
  const q = cliArg(() => ruleOrRangeArg(positionals[0]!, 'NUMBER'), usage);
  return withKb('rule', values.db, usage, (kb) => {
    const { edition } = kb.resolveEdition(values.edition, 'cr', '--edition');
    const a = kb.lookup(edition, q);
    console.log(formatLookup(a, 'text', (r) => kb.examples(r), { examples: values.examples, fullUrl: '', full: true }));
    return 0;
  });
}
