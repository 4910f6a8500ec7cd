import { compareReworded, compareRuleText } from './compareRule.js';
import type { RuleTextComparison, TextChange } from './compareRule.js';
import { extractReferences } from './references.js';
import type { Reference } from './references.js';
import { wordDiff } from './wordDiff.js';
import type { DiffSegment } from './wordDiff.js';

/** A rule of one edition with its lineage id, in document order. */
export interface DiffRule {
  number: string;
  text: string;
  parent?: string | null;
  kind?: string;
  examples: string[];
  lineage: number;
  /** Precomputed references of `text`; extracted when absent. */
  refs?: Reference[];
  /** Stored rule version: two rules with the same version have the same number, text and examples. */
  version?: number;
  /** Hash of the normalized text (texts.norm_h): different hashes mean the texts differ beyond typography. */
  normHash?: number;
}

/** One edition as the differ sees it. */
export interface DiffEdition {
  date: string;
  rules: DiffRule[];
  glossary?: Array<{ term: string; definition: string }>;
}

/** What kind of change a rule underwent, for filtering. */
export type ChangeKind = 'added' | 'removed' | 'renumbered' | 'substantive' | 'references' | 'typography';

/** One rule's change between the two editions. */
export interface RuleChange {
  before: { number: string; text: string } | null;
  after: { number: string; text: string } | null;
  renumbered: boolean;
  textChange: TextChange;
  /** Texts differ only typographically (textChange is then 'none'). */
  typography: boolean;
  lineage: number;
  /** Section ("702") the change is filed under: the after number's, or the before number's if removed. */
  section: string;
  kinds: ChangeKind[];
  /** Word-level segments between the two texts, when both exist and differ. */
  segments?: DiffSegment[];
}

/** Examples of a continuing rule that changed. */
export interface ExampleChange {
  lineage: number;
  number: string;
  before: string[];
  after: string[];
}

export interface GlossaryChange {
  term: string;
  before: string | null;
  after: string | null;
  segments?: DiffSegment[];
}

export interface EditionDiff {
  from: string;
  to: string;
  changes: RuleChange[];
  sections: Array<{ section: string; title: string | null; changes: number }>;
  counts: Record<ChangeKind, number> & { total: number };
  /** Every rule whose number changed, old → new, in `to` document order. */
  renumbering: Array<{ from: string; to: string }>;
  examples: ExampleChange[];
  glossary: GlossaryChange[];
}

export interface DiffOptions {
  /** Keep changes in this part ("7"), section ("702") or rule ("702.19") and its subrules. */
  section?: string;
  /** Keep changes of any of these kinds. */
  kinds?: ChangeKind[];
  /** Compute word segments (default true). */
  segments?: boolean;
}

/** The section ("702") a rule number belongs to. */
export function sectionOf(number: string): string {
  const m = /^(\d{3})/.exec(number);
  return m ? m[1]! : (number.split('.')[0] ?? number);
}

/** True when `number` lies in `scope`: a part ("7"), a section ("702") or a rule and its subrules ("702.19"). */
export function inScope(number: string, scope: string): boolean {
  if (/^\d$/.test(scope)) return number.startsWith(scope) && /^\d{3}/.test(number);
  if (number === scope) return true;
  if (!number.startsWith(scope)) return false;
  const next = number.charAt(scope.length);
  return next === '.' || (/^\d+\.\d+$/.test(scope) && /[a-z]/.test(next));
}

function lineageResolver(rules: DiffRule[]): (target: string) => number | null {
  // built on first use: most diffs resolve few references
  let m: Map<string, number> | null = null;
  return (t) => {
    if (!m) {
      m = new Map<string, number>();
      for (const r of rules) m.set(r.number, r.lineage);
    }
    return m.get(t) ?? null;
  };
}

/**
 * Pairs rules on lineage id: for each `to` rule, the index of the `from` rule it continues, or -1.
 * A lineage seen twice in `from` pairs with its first rule; each `from` rule pairs at most once.
 */
export function pairRules(from: DiffRule[], to: DiffRule[]): Int32Array {
  const fromByLineage = new Map<number, number>();
  for (let j = 0; j < from.length; j++) {
    const l = from[j]!.lineage;
    if (!fromByLineage.has(l)) fromByLineage.set(l, j);
  }
  const paired = new Uint8Array(from.length);
  const out = new Int32Array(to.length).fill(-1);
  for (let i = 0; i < to.length; i++) {
    const j = fromByLineage.get(to[i]!.lineage);
    if (j === undefined || paired[j]) continue;
    paired[j] = 1;
    out[i] = j;
  }
  return out;
}

const sameList = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Diffs any two editions by pairing rules on lineage id; `from` may be later than `to` (a reverse diff). */
export function diffEditions(from: DiffEdition, to: DiffEdition, opts: DiffOptions = {}): EditionDiff {
  const withSegments = opts.segments ?? true;
  const pairing = pairRules(from.rules, to.rules);
  const resolveFrom = lineageResolver(from.rules);
  const resolveTo = lineageResolver(to.rules);

  // Order: `to` document order, each removed rule right after its nearest surviving predecessor.
  const entries: Array<{ key: number; change: RuleChange }> = [];
  const examples: ExampleChange[] = [];
  const renumbering: EditionDiff['renumbering'] = [];
  const toPosOfFrom = new Int32Array(from.rules.length).fill(-1);

  for (let i = 0; i < to.rules.length; i++) {
    const r = to.rules[i]!;
    const j = pairing[i]!;
    if (j >= 0) {
      const b = from.rules[j]!;
      toPosOfFrom[j] = i;
      // the same stored version: same number, text and examples
      if (b.version !== undefined && b.version === r.version) continue;
      if (b.number !== r.number) renumbering.push({ from: b.number, to: r.number });
      if (!sameList(b.examples, r.examples)) {
        examples.push({ lineage: r.lineage, number: r.number, before: b.examples, after: r.examples });
      }
      if (b.number === r.number && b.text === r.text) continue;
      // (compareRuleText's defaults would extract references even for equal texts)
      const cmp: RuleTextComparison =
        b.text === r.text
          ? { textChange: 'none', typography: false }
          : b.normHash !== undefined && r.normHash !== undefined && b.normHash !== r.normHash && b.refs && r.refs
            ? compareReworded(b.text, r.text, resolveFrom, resolveTo, b.refs, r.refs)
            : compareRuleText(b.text, r.text, resolveFrom, resolveTo, b.refs, r.refs);
      const kinds: ChangeKind[] = [];
      if (b.number !== r.number) kinds.push('renumbered');
      if (cmp.textChange !== 'none') kinds.push(cmp.textChange);
      if (cmp.typography) kinds.push('typography');
      entries.push({
        key: i,
        change: {
          before: { number: b.number, text: b.text },
          after: { number: r.number, text: r.text },
          renumbered: b.number !== r.number,
          textChange: cmp.textChange,
          typography: cmp.typography,
          lineage: r.lineage,
          section: sectionOf(r.number),
          kinds,
          ...(withSegments && b.text !== r.text ? { segments: wordDiff(b.text, r.text) } : {}),
        },
      });
    } else {
      entries.push({
        key: i,
        change: {
          before: null,
          after: { number: r.number, text: r.text },
          renumbered: false,
          textChange: 'substantive',
          typography: false,
          lineage: r.lineage,
          section: sectionOf(r.number),
          kinds: ['added'],
        },
      });
    }
  }
  let lastPos = -1;
  from.rules.forEach((b, j) => {
    const p = toPosOfFrom[j]!;
    if (p >= 0) {
      lastPos = p;
      return;
    }
    entries.push({
      key: lastPos + 0.5 + j * 1e-7,
      change: {
        before: { number: b.number, text: b.text },
        after: null,
        renumbered: false,
        textChange: 'substantive',
        typography: false,
        lineage: b.lineage,
        section: sectionOf(b.number),
        kinds: ['removed'],
      },
    });
  });
  entries.sort((x, y) => x.key - y.key);

  let changes = entries.map((e) => e.change);
  if (opts.section !== undefined) {
    const s = opts.section;
    changes = changes.filter((c) => inScope(c.after?.number ?? '', s) || inScope(c.before?.number ?? '', s));
  }
  if (opts.kinds) {
    const ks = new Set(opts.kinds);
    changes = changes.filter((c) => c.kinds.some((k) => ks.has(k)));
  }

  const counts = { added: 0, removed: 0, renumbered: 0, substantive: 0, references: 0, typography: 0, total: 0 };
  for (const c of changes) {
    counts.total++;
    for (const k of c.kinds) counts[k]++;
  }
  const titles = new Map<string, string>();
  const SECTION = /^\d{3}$/;
  for (const rules of [from.rules, to.rules]) for (const r of rules) if (SECTION.test(r.number)) titles.set(r.number, r.text);
  const bySection = new Map<string, number>();
  for (const c of changes) bySection.set(c.section, (bySection.get(c.section) ?? 0) + 1);
  const sections = [...bySection].map(([section, n]) => ({ section, title: titles.get(section) ?? null, changes: n }));

  return {
    from: from.date,
    to: to.date,
    changes,
    sections,
    counts,
    renumbering:
      opts.section === undefined
        ? renumbering
        : renumbering.filter((r) => inScope(r.from, opts.section!) || inScope(r.to, opts.section!)),
    examples: opts.section === undefined ? examples : examples.filter((e) => inScope(e.number, opts.section!)),
    glossary: diffGlossary(from.glossary ?? [], to.glossary ?? [], withSegments),
  };
}

/** Glossary changes by term (case-insensitive): added, removed and reworded definitions. */
export function diffGlossary(
  from: Array<{ term: string; definition: string }>,
  to: Array<{ term: string; definition: string }>,
  withSegments = true,
): GlossaryChange[] {
  const key = (t: string): string => t.trim().toLowerCase();
  const before = new Map(from.map((g) => [key(g.term), g]));
  const out: GlossaryChange[] = [];
  const seen = new Set<string>();
  for (const g of to) {
    const k = key(g.term);
    seen.add(k);
    const b = before.get(k);
    if (!b) out.push({ term: g.term, before: null, after: g.definition });
    else if (b.definition !== g.definition) {
      out.push({
        term: g.term,
        before: b.definition,
        after: g.definition,
        ...(withSegments ? { segments: wordDiff(b.definition, g.definition) } : {}),
      });
    }
  }
  for (const g of from) if (!seen.has(key(g.term))) out.push({ term: g.term, before: g.definition, after: null });
  return out;
}

/** The exact JSON shape of `crkb diff --json`. */
export function diffToJson(d: EditionDiff): {
  from: string;
  to: string;
  changes: Array<Pick<RuleChange, 'before' | 'after' | 'renumbered' | 'textChange'>>;
} {
  return {
    from: d.from,
    to: d.to,
    changes: d.changes.map((c) => ({
      before: c.before,
      after: c.after,
      renumbered: c.renumbered,
      textChange: c.textChange,
    })),
  };
}

/** Extracts the references of every rule once, so repeated diffs don't redo it. */
export function withReferences<T extends { text: string; refs?: Reference[] }>(rules: T[]): T[] {
  for (const r of rules) r.refs ??= extractReferences(r.text);
  return rules;
}
