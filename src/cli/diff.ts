import { Catalog, UnknownEditionError } from '../db/Catalog.js';
import type { Db } from '../db/openDb.js';
import type { DocumentFamily } from '../core/types.js';
import { diffToJson } from '../engine/diffEditions.js';
import { loadDiff } from '../engine/loadDiff.js';
import type { ChangeKind, EditionDiff, RuleChange } from '../engine/diffEditions.js';
import type { DiffSegment } from '../engine/wordDiff.js';
import { openDbOption } from './openDbOption.js';
import { defaultDbFile, parseOptions } from './options.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb diff FROM TO [--section N] [--kind K[,K]] [--json|--markdown] [--renumbering] [--family cr|rulings] [--db FILE]

Compares two editions rule by rule, following each rule across renumbering.
FROM and TO are dates (the edition in force that day) or "latest"; FROM may be
later than TO (a reverse diff).

  --section N     only part N (7), section N (702) or rule N (702.19) and its subrules
  --kind K        only changes of these kinds: added, removed, renumbered,
                  substantive, references, typography (comma-separated)
  --json          {"from","to","changes":[{"before","after","renumbered","textChange"}]}
  --markdown      release notes grouped by section
  --renumbering   only the renumbering map, old -> new (JSON with --json)`;

const KINDS: ChangeKind[] = ['added', 'removed', 'renumbered', 'substantive', 'references', 'typography'];

/** Reads a --family option: "cr" (the Comprehensive Rules) or "rulings" (the Rulings Summaries). */
export function familyOption(value: string | undefined, help: string): DocumentFamily {
  if (value === undefined || value === 'cr' || value === 'rulings') return value ?? 'cr';
  throw new UsageError(`--family must be cr or rulings, not "${value}"`, help);
}

/** Resolves an edition argument (a date or "latest") or throws a UsageError naming the option. */
export function resolveEditionArg(
  db: Db,
  arg: string,
  what: string,
  help: string,
  family: DocumentFamily = 'cr',
): { id: number; effectiveDate: string } {
  try {
    return new Catalog(db).resolveEdition(arg, family);
  } catch (e) {
    if (e instanceof UnknownEditionError) throw new UsageError(`${what} ${arg}: ${e.message}`, help);
    throw e;
  }
}

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
      family: { type: 'string', default: 'cr' },
      db: { type: 'string' },
    },
    usage,
  );
  const family = familyOption(values.family, usage);
  if (positionals.length !== 2) throw new UsageError('expected two editions: FROM TO', usage);
  if (values.json && values.markdown) throw new UsageError('--json and --markdown exclude each other', usage);
  const section = values.section;
  if (section !== undefined && family === 'cr' && !/^\d(\d\d(\.\d+[a-z]?)?)?$/.test(section)) {
    throw new UsageError(`--section ${section}: expected a part (7), a section (702) or a rule (702.19)`, usage);
  }
  let kinds: ChangeKind[] | undefined;
  if (values.kind !== undefined) {
    kinds = values.kind.split(',').map((k) => k.trim()) as ChangeKind[];
    const bad = kinds.filter((k) => !KINDS.includes(k));
    if (bad.length > 0) throw new UsageError(`--kind ${bad.join(',')}: expected one of ${KINDS.join(', ')}`, usage);
  }
  const db = openDbOption(values.db ?? defaultDbFile(), usage);
  try {
    const from = resolveEditionArg(db, positionals[0]!, 'FROM', usage, family);
    const to = resolveEditionArg(db, positionals[1]!, 'TO', usage, family);
    const d = loadDiff(db, from, to, {
      ...(section !== undefined ? { section } : {}),
      ...(kinds ? { kinds } : {}),
      segments: !values.json,
      // examples are printed by no output; the glossary only by the summary and --markdown
      rulesOnly: values.json || values.renumbering,
    });
    let out: string;
    if (values.renumbering) {
      out = values.json
        ? JSON.stringify({ from: d.from, to: d.to, renumbering: d.renumbering })
        : d.renumbering.map((r) => `${r.from} -> ${r.to}`).join('\n');
    } else if (values.json) out = JSON.stringify(diffToJson(d));
    else if (values.markdown) out = releaseNotes(d);
    else out = summary(d);
    if (out !== '') process.stdout.write(out + '\n');
    return 0;
  } finally {
    db.close();
  }
}

function countsLine(d: EditionDiff): string {
  const c = d.counts;
  return `${c.total} changed rules: ${c.added} added, ${c.removed} removed, ${c.substantive} reworded, ${c.references} reference updates, ${c.renumbered} renumbered, ${c.typography} typography only`;
}

function label(c: RuleChange): string {
  if (!c.before) return `+ ${c.after!.number}`;
  if (!c.after) return `- ${c.before.number}`;
  const num = c.renumbered ? `${c.before.number} -> ${c.after.number}` : c.after.number;
  const what = c.textChange === 'none' ? (c.typography ? 'typography' : 'renumbered') : c.textChange === 'references' ? 'references' : 'reworded';
  return `~ ${num} (${what})`;
}

function oneLine(s: string, max = 110): string {
  const t = s.replace(/\s+/g, ' ');
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/** Default output: counts, then one line per change grouped by section. */
function summary(d: EditionDiff): string {
  const lines = [`${d.from} -> ${d.to}: ${countsLine(d)}`];
  const titles = new Map(d.sections.map((s) => [s.section, s.title]));
  let section = '';
  for (const c of d.changes) {
    if (c.section !== section) {
      section = c.section;
      lines.push('', `${section}${titles.get(section) ? ' ' + titles.get(section)! : ''}`);
    }
    const text = c.after?.text ?? c.before?.text ?? '';
    lines.push(`  ${label(c)}  ${oneLine(text, 90)}`);
  }
  if (d.glossary.length > 0) {
    lines.push('', 'Glossary');
    for (const g of d.glossary) lines.push(`  ${g.before === null ? '+' : g.after === null ? '-' : '~'} ${g.term}`);
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

function mdEscape(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/([*_~`[\]])/g, '\\$1');
}

// Rule letters skip l and o.
const LETTERS = 'abcdefghijkmnpqrstuvwxyz';

/** How a number moved: its whole section, its rule number within the section, or its letter within the rule. */
function shiftOf(from: string, to: string): { kind: 'section' | 'rule' | 'letter'; key: string } | null {
  const a = /^(\d{3})(?:\.(\d+)([a-z]?))?$/.exec(from);
  const b = /^(\d{3})(?:\.(\d+)([a-z]?))?$/.exec(to);
  if (!a || !b) return null;
  const [, sa, ra, la] = a;
  const [, sb, rb, lb] = b;
  if (sa !== sb) return ra === rb && la === lb ? { kind: 'section', key: `${sa}>${sb}` } : null;
  if (ra === undefined || rb === undefined) return null;
  if (ra !== rb) return la === lb ? { kind: 'rule', key: `${sa}:${Number(rb) - Number(ra)}` } : null;
  const ia = LETTERS.indexOf(la!);
  const ib = LETTERS.indexOf(lb!);
  return ia >= 0 && ib >= 0 ? { kind: 'letter', key: `${sa}.${ra}:${ib - ia}` } : null;
}

/**
 * Summarizes the renumbering map: runs of three or more numbers that moved alike (a whole section,
 * rule numbers within a section, letters within a rule) collapse to one line each.
 */
export function summarizeRenumbering(map: Array<{ from: string; to: string }>): string[] {
  const out: string[] = [];
  let k = 0;
  while (k < map.length) {
    const { from, to } = map[k]!;
    const shift = shiftOf(from, to);
    let end = k + 1;
    while (shift && end < map.length) {
      const s = shiftOf(map[end]!.from, map[end]!.to);
      if (!s || s.kind !== shift.kind || s.key !== shift.key) break;
      end++;
    }
    const last = map[end - 1]!;
    const n = end - k;
    if (shift && n >= 3) {
      if (shift.kind === 'section') out.push(`${from}–${last.from} → ${to}–${last.to} (section ${from.slice(0, 3)} is now ${to.slice(0, 3)}, ${n} rules)`);
      else if (shift.kind === 'rule') out.push(`${from}–${last.from} → ${to}–${last.to} (${n} rules renumbered within section ${from.slice(0, 3)})`);
      else out.push(`${from}–${last.from.slice(-1)} → ${to}–${last.to.slice(-1)} (${n} subrules relettered)`);
    } else for (let x = k; x < end; x++) out.push(`${map[x]!.from} → ${map[x]!.to}`);
    k = end;
  }
  return out;
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
    if (!c.before) lines.push(`- **${c.after!.number}** (new): ${mdEscape(c.after!.text)}`);
    else if (!c.after) lines.push(`- **${c.before.number}** (removed): ~~${mdEscape(c.before.text)}~~`);
    else {
      const num = c.renumbered ? `${c.after.number}** (formerly ${c.before.number})` : `${c.after.number}**`;
      lines.push(`- **${num}: ${c.segments ? mdSegments(c.segments) : mdEscape(c.after.text)}`);
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
  const typo = d.changes.filter((c) => c.textChange === 'none' && c.typography);
  if (typo.length > 0) lines.push('', `${typo.length} rules changed only in typography: ${typo.map((c) => c.after!.number).join(', ')}.`);
  if (d.glossary.length > 0) {
    lines.push('', '## Glossary', '');
    for (const g of d.glossary) {
      if (g.before === null) lines.push(`- **${mdEscape(g.term)}** (new): ${mdEscape(g.after ?? '')}`);
      else if (g.after === null) lines.push(`- **${mdEscape(g.term)}** (removed)`);
      else lines.push(`- **${mdEscape(g.term)}**: ${g.segments ? mdSegments(g.segments) : mdEscape(g.after)}`);
    }
  }
  return lines.join('\n');
}
