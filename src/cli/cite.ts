import { readFileSync } from 'node:fs';
import { citationsMarkdown } from '../query/chatText.js';
import { checkCitations, citationsJson } from '../query/checkCitations.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { withKb } from './withKb.js';

export const usage = `Usage: crkb cite FILE --as-of DATE|SET [--to DATE|latest|SET] [--json] [--db FILE]

Finds the rule citations in FILE ("rule 706.10", "rules 601.2a-h", bare 704.5m;
"-" reads stdin), written against the edition in force on --as-of, and says for
each where that rule is now (--to, default latest): same, moved (renumbered),
changed (new text), gone (and since when), or not a rule then; a title quoted
after a number ("702.19 (Trample)") is checked too. Markdown table by default.
Exit status 0 when every citation is the same, 2 when some need a look.`;

/** `crkb cite`: check the citations of a file against a later edition. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    { db: { type: 'string' }, 'as-of': { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean', default: false } },
    usage,
  );
  if (positionals.length !== 1) throw new UsageError('give exactly one FILE', usage);
  if (values['as-of'] === undefined) throw new UsageError('--as-of is required: the date (or set code) the citations were written against', usage);
  let text: string;
  try {
    text = readFileSync(positionals[0] === '-' ? 0 : positionals[0]!, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${positionals[0]}: ${(e as Error).message}`, usage);
  }
  return withKb('cite', values.db, usage, (kb) => {
    const r = checkCitations(kb, { text, asOf: values['as-of'], to: values.to ?? null });
    if (values.json) {
      console.log(JSON.stringify(citationsJson(r), null, 2));
    } else console.log(citationsMarkdown(r));
    return r.citations.every((c) => c.status === 'same') ? 0 : 2;
  });
}
