import { FAMILIES } from '../core/families.js';
import { diffToJson } from '../engine/diffEditions.js';
import { textClass } from '../engine/compareRule.js';
import type { PairReason } from '../engine/explainPairs.js';
import type { ChangeKind, EditionDiff, RuleChange } from '../engine/diffEditions.js';
import type { DiffSegment } from '../engine/wordDiff.js';
import { diffLine } from '../query/chatText.js';
import { summarizeRenumbering } from '../query/summarizeRenumbering.js';
import { familyArg, scopeArg } from '../query/edgeArgs.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { cliArg, withKb } from './withKb.js';

export const usage = `Usage: crkb diff FROM TO [--section N] [--kind K[,K]] [--json|--markdown] [--renumbering] [--explain] [--family ${FAMILIES.join('|')}] [--db FILE]

Compares two editions rule by rule, following each rule across renumbering.
FROM and TO are dates (the edition in force that day) or "latest"; FROM may be
later than TO (a reverse diff).

  --section N     only part N (7), section N (702) or rule N (702.19) and its subrules
  --kind K        only changes of these kinds: added, removed, renumbered,
                  substantive, references, typography (comma-separated)
  --json          {"from","to","changes":[{"before","after","renumbered","textChange"}]}
  --markdown      release notes grouped by section
  --renumbering   only the renumbering map, old -> new (JSON with --json)
  --explain       why each rule was paired: the aligner's method and score
                  (adjacent editions), else how many editions the lineage spans`;

const KINDS: ChangeKind[] = ['added', 'removed', 'renumbered', 'substantive', 'references', 'typography'];

/** `crkb diff`: compare two editions. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      section: { type: 'string' },
      kind: { type: 'string' },
      json: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
      renumbering: { type: 'boolean', default: false },
      explain: { type: 'boolean', default: false },
      family: { type: 'string', default: 'cr' },
      db: { type: 'string' },
    },
    usage,
  );
  const family = cliArg(() => familyArg(values.family, '--family'), usage);
  if (positionals.length !== 2) throw new UsageError('expected two editions: FROM TO', usage);
  if (values.json && values.markdown) throw new UsageError('--json and --markdown exclude each other', usage);
  const section = family === 'cr' ? (cliArg(() => scopeArg(values.section, '--section'), usage) ?? undefined) : values.section;
  let kinds: ChangeKind[] | undefined;
  if (values.kind !== undefined) {
    kinds = values.kind.split(',').map((k) => k.trim()) as ChangeKind[];
    const bad = kinds.filter((k) => !KINDS.includes(k));
    if (bad.length > 0) throw new UsageError(`--kind ${bad.join(',')}: expected one of ${KINDS.join(', ')}`, usage);
  }
  return withKb('diff', values.db, usage, (kb) => {
    const from = kb.resolveEdition(positionals[0], family, 'FROM').edition;
    const to = kb.resolveEdition(positionals[1], family, 'TO').edition;
    const d = kb.diff(from, to, {
      ...(section !== undefined ? { section } : {}),
      ...(kinds ? { kinds } : {}),
      segments: !values.json,
      rulesOnly: values.renumbering,
    });
    const explain = values.explain ? kb.explain(from, to) : null;
    let out: string;
    if (values.renumbering) {
      out = values.json ? JSON.stringify({ from: d.from, to: d.to, renumbering: d.renumbering }) : d.renumbering.map((r) => `${r.from} -> ${r.to}`).join('\n');
    } else if (values.json) {
      const json = diffToJson(d);
      out = JSON.stringify(explain ? { ...json, changes: json.changes.map((c, k) => ({ ...c, explain: explain(d.changes[k]!) })) } : json);
    } else if (values.markdown) out = releaseNotes(d);
    else out = summary(d, explain);
    if (out !== '') process.stdout.write(out + '\n');
    return 0;
  });
}

function countsLine(d: EditionDiff): string {
  const c = d.counts;
  return `${c.total} changed rules: ${c.added} added, ${c.removed} removed, ${c.substantive} reworded, ${c.references} reference updates, ${c.renumbered} renumbered, ${c.typography} typography only`;
}

function reasonLine(r: PairReason | null): string {
  if (!r) return 'why: no counterpart';
  if (r.method === 'lineage') return `why: same lineage${r.steps !== undefined ? ` across ${r.steps} alignment steps` : ''}`;
  return `why: ${r.method}${r.score !== null ? ` ${r.score.toFixed(2)}` : ''}`;
}

/** Default output: counts, then one line per change grouped by section. */
function summary(d: EditionDiff, explain: ((c: RuleChange) => PairReason | null) | null = null): string {
  const lines = [`${d.from} -> ${d.to}: ${countsLine(d)}`];
  const titles = new Map(d.sections.map((s) => [s.section, s.title]));
  let section = '';
  for (const c of d.changes) {
    if (c.section !== section) {
      section = c.section;
      lines.push('', `${section}${titles.get(section) ? ' ' + titles.get(section)! : ''}`);
    }
    lines.push(`  ${diffLine(c, 'text', 90)}`);
    if (explain) lines.push(`      ${reasonLine(explain(c))}`);
  }
  if (d.glossary.length > 0) {
    lines.push('', 'Glossary');
    for (const g of d.glossary) {
      const cls = g.before !== null && g.after !== null && g.textChange !== 'substantive' ? ` (${g.textChange})` : '';
      lines.push(`  ${g.before === null ? '+' : g.after === null ? '-' : '~'} ${g.term}${cls}`);
    }
  }
  if (d.examples.length > 0) {
    lines.push('', 'Examples');
    for (const x of d.examples) lines.push(`  ~ ${x.number} (${x.textChange === 'substantive' ? 'reworded' : x.textChange})`);
  }
  return lines.join('\n');
}

function mdSegments(segs: DiffSegment[]): string {
  return segs
    .map((s) => {
      const t = s.text.replace(/\s+/g, ' ');
      if (s.op === 'equal' || t.trim() === '') return mdEscape(t);
      // Markers hug the words; the spaces around them stay outside so Markdown renders them.
      const lead = t.startsWith(' ') ? ' ' : '';
      const trail = t.endsWith(' ') ? ' ' : '';
      const mark = s.op === 'insert' ? '**' : '~~';
      return `${lead}${mark}${mdEscape(t.trim())}${mark}${trail}`;
    })
    .join('');
}

// More than half of the words on either side are not shared: a word diff would be unreadable.
function mostlyRewritten(segs: DiffSegment[]): boolean {
  const words = (op: string): number => segs.filter((x) => x.op === op).reduce((n, x) => n + (x.text.match(/\S+/g)?.length ?? 0), 0);
  const same = words('equal');
  return words('delete') > same && words('insert') > same;
}

function mdEscape(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/([*_~`[\]])/g, '\\$1');
}

/** Release notes (Markdown): counts, renumbering summary, substantive changes by section, reference-only updates apart. */
export function releaseNotes(d: EditionDiff): string {
  const lines = [`# Comprehensive Rules changes, ${d.from} → ${d.to}`, '', countsLine(d) + '.'];
  if (d.renumbering.length > 0) {
    lines.push('', '## Renumbering', '');
    for (const l of summarizeRenumbering(d.renumbering)) lines.push(`- ${l}`);
  }
  const titles = new Map(d.sections.map((s) => [s.section, s.title]));
  const substantive = d.changes.filter((c) => c.textChange === 'substantive');
  let section = '';
  if (substantive.length > 0) lines.push('', '## Changes');
  for (const c of substantive) {
    if (c.section !== section) {
      section = c.section;
      lines.push('', `### ${section}${titles.get(section) ? ' ' + mdEscape(titles.get(section)!) : ''}`, '');
    }
    if (!c.before) lines.push(`- **${c.after!.number}** (new${c.splitFrom !== undefined ? `, split from ${c.splitFrom}` : ''}): ${mdEscape(c.after!.text)}`);
    else if (!c.after)
      lines.push(`- **${c.before.number}** (${c.mergedInto !== undefined ? `merged into ${c.mergedInto}` : 'removed'}): ~~${mdEscape(c.before.text)}~~`);
    else {
      const num = c.renumbered ? `${c.after.number}** (formerly ${c.before.number})` : `${c.after.number}**`;
      if (c.segments && mostlyRewritten(c.segments)) {
        lines.push(`- **${num}, rewritten:`, `  - before: ${mdEscape(c.before.text)}`, `  - after: ${mdEscape(c.after.text)}`);
      } else lines.push(`- **${num}: ${c.segments ? mdSegments(c.segments) : mdEscape(c.after.text)}`);
    }
  }
  const refs = d.changes.filter((c) => c.textChange === 'references');
  if (refs.length > 0) {
    lines.push('', '## Reference updates', '', 'Only rule numbers changed; every reference still points at the same rule.', '');
    for (const c of refs) {
      const pairs = (c.segments ?? []).filter((s) => s.op !== 'equal' && s.text.trim() !== '');
      const del = pairs.filter((s) => s.op === 'delete').map((s) => s.text.trim());
      const ins = pairs.filter((s) => s.op === 'insert').map((s) => s.text.trim());
      lines.push(`- **${c.after!.number}**: ${del.join(', ')} → ${ins.join(', ')}`);
    }
  }
  const glossaryRefs = d.glossary.filter((g) => g.before !== null && g.after !== null && (g.textChange === 'references' || g.textChange === 'correction'));
  if (glossaryRefs.length > 0)
    lines.push('', `Glossary entries whose reference numbers only were updated: ${glossaryRefs.map((g) => mdEscape(g.term)).join(', ')}.`);
  const typo = d.changes.filter((c) => textClass(c) === 'typography');
  if (typo.length > 0) lines.push('', `${typo.length} rules changed only in typography: ${typo.map((c) => c.after!.number).join(', ')}.`);
  const fixed = d.changes.filter((c) => textClass(c) === 'correction' && c.textChange === 'none');
  if (fixed.length > 0)
    lines.push('', `${fixed.length} rules corrected (a punctuation mark fixed, the wording unchanged): ${fixed.map((c) => c.after!.number).join(', ')}.`);
  const glossary = d.glossary.filter((g) => g.textChange === 'substantive');
  if (glossary.length > 0) {
    lines.push('', '## Glossary', '');
    for (const g of glossary) {
      if (g.before === null) lines.push(`- **${mdEscape(g.term)}** (new): ${mdEscape(g.after ?? '')}`);
      else if (g.after === null) lines.push(`- **${mdEscape(g.term)}** (removed)`);
      else lines.push(`- **${mdEscape(g.term)}**: ${g.segments ? mdSegments(g.segments) : mdEscape(g.after)}`);
    }
  }
  const examples = d.examples.filter((x) => x.textChange === 'substantive');
  if (examples.length > 0) {
    lines.push('', '## Examples', '');
    for (const x of examples) {
      lines.push(`- **${x.number}**:`);
      for (const t of x.before.filter((b) => !x.after.includes(b))) lines.push(`  - ~~${mdEscape(t)}~~`);
      for (const t of x.after.filter((a) => !x.before.includes(a))) lines.push(`  - ${mdEscape(t)}`);
    }
  }
  return lines.join('\n');
}
