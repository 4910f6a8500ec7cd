import { Reader } from '../db/Reader.js';
import { resolveEditionArg } from '../server/args.js';
import { codeOf } from '../server/errors.js';
import { answerLookup } from '../server/lookup/answerLookup.js';
import { formatLookup } from '../server/lookup/formatLookup.js';
import { parseQuery } from '../server/lookup/parseQuery.js';
import { openDbOption } from './openDbOption.js';
import { defaultDbFile, parseOptions } from './options.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb rule NUMBER [--edition DATE|latest] [--examples] [--db FILE]

Prints a rule with its subrules ("702.19", "702.19b", "601.2a-h") as it reads
in an edition (default: latest; any date means the edition in force that day).`;

/** `crkb rule`: print one rule (or range) of an edition. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    { db: { type: 'string' }, edition: { type: 'string' }, examples: { type: 'boolean', default: false } },
    usage,
  );
  if (positionals.length !== 1) throw new UsageError('give exactly one rule NUMBER', usage);
  const q = positionals[0]!;
  const kind = parseQuery(q).kind;
  if (kind !== 'number' && kind !== 'range') throw new UsageError(`"${q}" is not a rule number (like 702.19b)`, usage);
  const db = openDbOption(values.db ?? defaultDbFile(), usage);
  try {
    const reader = new Reader(db);
    try {
      const { edition } = resolveEditionArg(reader, values.edition);
      const a = answerLookup(reader, edition, q);
      console.log(formatLookup(a, 'text', (r) => reader.examples(r), { examples: values.examples, fullUrl: '', full: true }));
      return 0;
    } catch (e) {
      const code = codeOf(e);
      if (code === 'BAD_USER_INPUT') throw new UsageError((e as Error).message, usage);
      if (code === 'NOT_FOUND') {
        const s = ((e as { extensions?: { suggestions?: string[] } }).extensions?.suggestions ?? []).join(', ');
        console.error(`crkb rule: ${(e as Error).message}${s ? `; nearest: ${s}` : ''}`);
        return 1;
      }
      throw e;
    }
  } finally {
    db.close();
  }
}
