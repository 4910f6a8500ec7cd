import type { HistoryStep } from '../engine/history.js';
import { FAMILIES } from '../core/families.js';
import type { Family } from '../core/records.js';
import { historyStepWords, historySummary } from '../query/chatText.js';
import { currentPlace } from '../query/currentPlace.js';
import { familyArg, ruleNumberArg } from '../query/edgeArgs.js';
import { inlineWordDiff } from './inlineWordDiff.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { cliArg, withKb } from './withKb.js';

export const usage = `Usage: crkb history NUMBER [--edition DATE|latest] [--family ${FAMILIES.join('|')}] [--json] [--db FILE]
       crkb history --term TERM [--edition DATE|latest] [--json] [--db FILE]

Shows every edition a rule appears in, under which number, and what changed at
each step, following it across renumbering and the 2009 rewrite. NUMBER is read
in --edition (default latest). With --term, the same for a glossary term
(case-insensitive), following it across renamings.`;

/** `crkb history`: a rule's history across editions. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      edition: { type: 'string', default: 'latest' },
      term: { type: 'string' },
      family: { type: 'string', default: 'cr' },
      json: { type: 'boolean', default: false },
      db: { type: 'string' },
    },
    usage,
  );
  const family = cliArg(() => familyArg(values.family, '--family'), usage);
  if (values.term !== undefined) {
    if (positionals.length > 0) throw new UsageError('--term replaces NUMBER: give one or the other', usage);
    if (values.term.trim() === '') throw new UsageError('--term needs a glossary term', usage);
    return termHistory(values.term, values.edition, values.json ?? false, values.db, family);
  }
  if (positionals.length !== 1) throw new UsageError('expected one rule NUMBER', usage);
  const number = cliArg(() => ruleNumberArg(positionals[0]!, 'NUMBER', family), usage);
  return withKb('history', values.db, usage, (kb) => {
    const asked = kb.resolveEdition(values.edition, family, '--edition').edition;
    const { edition } = currentPlace(kb, number, asked);
    if (edition !== asked)
      console.error(`crkb history: ${number} is not in the ${asked.effectiveDate} edition; following the ${number} of ${edition.effectiveDate}`);
    const found = kb.history(edition, number)!;
    const { links, ...history } = found;
    if (values.json) {
      process.stdout.write(JSON.stringify({ query: { number, edition: edition.effectiveDate }, ...history, links }) + '\n');
      return 0;
    }
    const lines = [`${number} (${edition.effectiveDate}): lineage ${history.lineage}, ${historySummary(history)}`];
    lines.push(...stepLines(history.steps, 'renumbered', (s) => `${s.date}  ${s.number.padEnd(8)}`));
    for (const l of links) {
      lines.push(
        l.kind === 'split'
          ? `${l.date}  ${l.number} split off from ${l.prevNumber} (${l.prevDate})`
          : `${l.date}  ${l.prevNumber} (${l.prevDate}) merged into ${l.number}`,
      );
    }
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  });
}

// One line per step that changed (runs of unchanged editions counted), with the text where it
// first appears and a word diff where it was reworded.
function stepLines(steps: HistoryStep[], renumbered: string, head: (s: HistoryStep) => string): string[] {
  const lines: string[] = [];
  let unchanged = 0;
  const flush = (): void => {
    if (unchanged > 0) lines.push(`             (unchanged in ${unchanged} more edition${unchanged > 1 ? 's' : ''})`);
    unchanged = 0;
  };
  for (const s of steps) {
    if (s.change === 'unchanged') {
      unchanged++;
      continue;
    }
    flush();
    lines.push(`${head(s)} ${historyStepWords(s, renumbered)}`);
    // the whole text where it (re)appears, a word diff where its text changed
    if (s.change === 'added') lines.push(`             ${s.text.replace(/\s+/g, ' ')}`);
    else if (s.textChange === 'substantive' && s.segments) lines.push(`             ${inlineWordDiff(s.segments)}`);
  }
  flush();
  return lines;
}

/** `crkb history --term`: a glossary term's history. */
function termHistory(term: string, editionArg: string, json: boolean, dbFile: string | undefined, family: Family): Promise<number> {
  return withKb('history', dbFile, usage, (kb) => {
    const edition = editionArg === 'latest' ? null : kb.resolveEdition(editionArg, family, '--edition').edition;
    const h = kb.glossaryHistory(term, edition, family);
    if (!h) {
      console.error(`crkb history: no glossary term "${term}"${edition ? ` in the ${edition.effectiveDate} edition` : ' in any stored edition'}`);
      return 1;
    }
    if (json) {
      process.stdout.write(JSON.stringify({ query: { term, edition: edition?.effectiveDate ?? null }, ...h }) + '\n');
      return 0;
    }
    const lines = [`${h.terms.join(' → ')} (glossary): in ${h.steps.length} editions, ${h.first} to ${h.last}`];
    lines.push(...stepLines(h.steps, 'renamed', (s) => `${s.date} `));
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  });
}
