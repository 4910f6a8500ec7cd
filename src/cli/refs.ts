import { oneLine } from '../query/chatText.js';
import { ruleNumberArg } from '../query/edgeArgs.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { withKb } from './withKb.js';

export const usage = `Usage: crkb refs NUMBER [--edition DATE|latest] [--incoming] [--json] [--db FILE]
       crkb refs --dangling [--edition DATE|latest] [--json] [--db FILE]
       crkb refs --stale [--edition DATE|latest] [--json] [--db FILE]

Lists the cross-references of a rule (its text and examples) in an edition
(default latest), each resolved to the rule, section or part it names, or
"dangling" when that edition has none. --incoming lists what cites the rule
instead; --dangling lists every unresolved reference of the edition; --stale
every reference whose quoted title names another rule than its target now is
("rule 701.36, "Exert"" where 701.36 is Goad).`;

/** One outgoing reference, resolved in its edition. */
export interface OutgoingRef {
  source: string;
  mention: string;
  target: string;
  kind: 'rule' | 'section' | 'part';
  resolved: { number: string; text: string } | null;
}

/** `crkb refs`: outgoing, incoming or dangling references. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      edition: { type: 'string', default: 'latest' },
      incoming: { type: 'boolean', default: false },
      dangling: { type: 'boolean', default: false },
      stale: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      db: { type: 'string' },
    },
    usage,
  );
  if (values.dangling && values.stale) throw new UsageError('--dangling and --stale exclude each other', usage);
  const listing = values.dangling ? '--dangling' : values.stale ? '--stale' : null;
  if (listing ? positionals.length !== 0 : positionals.length !== 1) {
    throw new UsageError(listing ? `${listing} takes no NUMBER` : 'expected one rule NUMBER', usage);
  }
  return withKb('refs', values.db, usage, (kb) => {
    const { edition } = kb.resolveEdition(values.edition, 'cr', '--edition');
    const write = (s: string): void => void process.stdout.write(s + '\n');
    const where = (d: { source: string; at: string }): string =>
      d.source === 'glossary' ? `glossary "${d.at}"` : `${d.at}${d.source === 'example' ? ' (example)' : ''}`;
    if (values.dangling) {
      const list = kb.dangling(edition.id);
      if (values.json) write(JSON.stringify({ edition: edition.effectiveDate, count: list.length, dangling: list }));
      else {
        write(`${edition.effectiveDate}: ${list.length} dangling references`);
        for (const d of list) write(`  ${where(d)}: "${d.mention}" -> ${d.target}`);
        const stale = kb.staleRefs(edition.id).length;
        if (stale > 0) write(`and ${stale} stale citation${stale > 1 ? 's' : ''} (a target whose title is not the one quoted): see --stale`);
      }
      return 0;
    }
    if (values.stale) {
      const list = kb.staleRefs(edition.id);
      if (values.json) write(JSON.stringify({ edition: edition.effectiveDate, count: list.length, stale: list }));
      else {
        write(`${edition.effectiveDate}: ${list.length} stale citations`);
        for (const d of list) write(`  ${where(d)}: "${d.mention}, ${d.cited}" -> ${d.target} is "${oneLine(d.title, 60)}"`);
      }
      return 0;
    }
    const number = ruleNumberArg(positionals[0]!, 'NUMBER');
    const reader = kb;
    const rule = kb.ruleOrThrow(edition, number);
    if (values.incoming) {
      const rules = reader.citing(edition.id, [number]).get(number) ?? [];
      const glossary = reader.glossaryCiting(edition.id, [number]).get(number) ?? [];
      if (values.json) {
        write(
          JSON.stringify({
            edition: edition.effectiveDate,
            number,
            rules: rules.map((r) => ({ number: r.number, text: r.text })),
            glossary: glossary.map((g) => ({ term: g.term, definition: g.definition })),
          }),
        );
      } else {
        write(`${number} (${edition.effectiveDate}) is cited by ${rules.length} rules and ${glossary.length} glossary entries`);
        for (const r of rules) write(`  ${r.number.padEnd(9)} ${oneLine(r.text, 100)}`);
        for (const g of glossary) write(`  glossary "${g.term}"`);
      }
      return 0;
    }
    const ids = [rule.textId, ...rule.exampleIds];
    const bodies = reader.texts(ids);
    const refs = reader.refsOfTexts(ids);
    const parts = new Map(reader.parts(edition.id).map((p) => [p.number, p.title]));
    const all = ids.flatMap((id, k) => (refs.get(id) ?? []).map((r) => ({ r, id, source: k === 0 ? 'text' : `example ${k}` })));
    const targets = reader.rulesByNumbers(edition.id, [...new Set(all.map((x) => x.r.target))]);
    const byNumber = new Map(targets.filter((t) => t !== null).map((t) => [t.number, t.text]));
    const out: OutgoingRef[] = all.map(({ r, id, source }) => {
      const text = r.kind === 'part' ? parts.get(r.target) : byNumber.get(r.target);
      return {
        source,
        mention: (bodies.get(id) ?? '').slice(r.start, r.end),
        target: r.target,
        kind: r.kind,
        resolved: text === undefined ? null : { number: r.target, text },
      };
    });
    if (values.json) write(JSON.stringify({ edition: edition.effectiveDate, number, refs: out }));
    else {
      write(`${number} (${edition.effectiveDate}) cites ${out.length} targets`);
      for (const o of out) {
        write(`  ${o.target.padEnd(9)} ${o.resolved ? oneLine(o.resolved.text, 100) : 'dangling'}${o.source === 'text' ? '' : `  [${o.source}]`}`);
      }
    }
    return 0;
  });
}
