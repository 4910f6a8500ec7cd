import { searchHitLine } from '../query/chatText.js';
import { FAMILIES } from '../core/families.js';
import { countArg, familyArg } from '../query/edgeArgs.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { cliArg, withKb } from './withKb.js';

export const usage = `Usage: crkb search TEXT [--edition DATE|latest|SET] [--family ${FAMILIES.join('|')}] [--limit 20] [--prefix] [--json] [--db FILE]

Full-text search (bm25 ranking) over the rules, examples and glossary of one
edition of a document (--family, default cr; mtr, ipg and jar: the tournament
documents' sections). TEXT is plain words: quotes, *, NEAR, - and parentheses are just text.
A misspelt word is read as the nearest indexed word; --prefix reads the last
word as a prefix.`;

/** `crkb search`: ranked full-text search in one edition. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      db: { type: 'string' },
      edition: { type: 'string' },
      family: { type: 'string' },
      limit: { type: 'string', default: '20' },
      json: { type: 'boolean', default: false },
      prefix: { type: 'boolean', default: false },
    },
    usage,
  );
  if (positionals.length === 0) throw new UsageError('give the TEXT to search for', usage);
  const family = cliArg(() => familyArg(values.family, '--family'), usage);
  const limit = cliArg(() => countArg(values.limit, { argument: '--limit', min: 1, max: 500, fallback: 20 }), usage);
  return withKb('search', values.db, usage, (kb) => {
    const { edition } = kb.resolveEdition(values.edition, family, '--edition');
    const tty = process.stdout.isTTY === true;
    const marks = tty ? { open: '\x1b[1m', close: '\x1b[22m' } : { open: '«', close: '»' };
    const hits = kb.search(edition.id, positionals.join(' '), { limit, marks, prefix: values.prefix });
    if (values.json) {
      const out = hits.map((h) => ({
        kind: h.kind,
        number: h.rule?.number ?? null,
        exampleIndex: h.exampleIndex,
        term: h.glossary?.term ?? null,
        score: h.score,
        snippet: h.snippet,
      }));
      console.log(JSON.stringify({ edition: edition.effectiveDate, hits: out }, null, 2));
      return 0;
    }
    for (const h of hits) console.log(searchHitLine(h, 'text'));
    console.log(`${hits.length} hit(s) in the ${edition.effectiveDate} edition`);
    return 0;
  });
}
