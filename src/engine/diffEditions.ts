import { extractReferences } from '../core/references.js';
import { inScope, sectionOf } from '../core/ruleNumber.js';
import { termKey } from '../core/termKey.js';
import { compareTexts, textClass } from './compareRule.js';
import type { DiffText, ResolveLineage, TextChange, TextClass, TitleOf } from './compareRule.js';
import { wordDiff } from './wordDiff.js';
import type { DiffSegment } from './wordDiff.js';

/** A rule of one edition with its lineage id, in document order. */
export interface DiffRule extends DiffText {
  number: string;
  parent?: string | null;
  kind?: string;
  examples: DiffText[];
  lineage: number;
  /** Stored rule version: two rules with the same version have the same number, text and examples. */
  version?: number;
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
  /** Only reference numbers changed, repairing stale citations (textChange is then 'references'). */
  correction?: boolean;
  lineage: number;
  /** Section ("702") the change is filed under: the after number's, or the before number's if removed. */
  section: string;
  kinds: ChangeKind[];
  /** Word-level segments between the two texts, when both exist and differ. */
  segments?: DiffSegment[];
  /** A removed rule folded into another along the way: that rule's number in `to`. */
  mergedInto?: string;
  /** An added rule split off another along the way: that rule's number in `from`. */
  splitFrom?: string;
}

/** Examples of a continuing rule that changed. */
interface ExampleChange {
  lineage: number;
  number: string;
  before: string[];
  after: string[];
  /** The strongest class of the examples' changes ('substantive' when examples came or went). */
  textChange: TextClass;
}

export interface GlossaryChange {
  term: string;
  before: string | null;
  after: string | null;
  /** 'substantive' for added and removed terms. */
  textChange: TextClass;
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

/** Position of the last rule with a number (document order); the index is built on first use. */
export function lastPositions(numbers: ArrayLike<string>): (number: string) => number | undefined {
  let m: Map<string, number> | null = null;
  return (t) => {
    if (m === null) {
      m = new Map();
      for (let k = 0; k < numbers.length; k++) m.set(numbers[k]!, k);
    }
    return m.get(t);
  };
}

/**
 * Resolves a rule number to the lineage at its position (see lastPositions), and any other target
 * (a part, "6") with `other` (see partLineages).
 */
export function lineageResolver(positionOf: (number: string) => number | undefined, lineages: ArrayLike<number>, other?: ResolveLineage): ResolveLineage {
  return (t) => {
    const k = positionOf(t);
    return k !== undefined ? lineages[k]! : other ? other(t) : null;
  };
}

/**
 * Lineages of the parts (chapters) of two editions: a part is the same part when its title is
 * (so "section 6, Multiplayer Rules" → "section 8" is a reference update). Ids are negative,
 * below any rule's, and the same in both maps.
 */
export function partLineages(
  from: Array<[number: string, title: string]>,
  to: Array<[number: string, title: string]>,
): [Map<string, number>, Map<string, number>] {
  const ids = new Map<string, number>();
  const idOf = (title: string): number => {
    const key = title.trim().toLowerCase();
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = -1e12 - ids.size));
    return id;
  };
  const map = (parts: Array<[string, string]>): Map<string, number> => new Map(parts.map(([n, t]) => [n, idOf(t)]));
  return [map(from), map(to)];
}

/** Pairs rules by lineage id: for each `to` rule, the index of the `from` rule it continues, or -1. */
export function pairLineages(from: ArrayLike<number>, to: ArrayLike<number>): Int32Array {
  const fromByLineage = new Map<number, number>();
  for (let j = 0; j < from.length; j++) {
    const l = from[j]!;
    if (!fromByLineage.has(l)) fromByLineage.set(l, j);
  }
  const paired = new Uint8Array(from.length);
  const out = new Int32Array(to.length).fill(-1);
  for (let i = 0; i < to.length; i++) {
    const j = fromByLineage.get(to[i]!);
    if (j === undefined || paired[j]) continue;
    paired[j] = 1;
    out[i] = j;
  }
  return out;
}

/**
 * The order changes are listed in: `to` document order (index i >= 0), each removed `from` rule
 * (encoded as -1 - j) right after its nearest surviving predecessor, removed rules in `from` order.
 */
function changeOrder(pairing: Int32Array, fromLength: number): Int32Array {
  const toPosOfFrom = new Int32Array(fromLength).fill(-1);
  for (let i = 0; i < pairing.length; i++) if (pairing[i]! >= 0) toPosOfFrom[pairing[i]!] = i;
  // removed rules after to-position p (p = -1: before everything), chained through `next` in from order
  const head = new Int32Array(pairing.length + 1).fill(-1);
  const tail = new Int32Array(pairing.length + 1).fill(-1);
  const next = new Int32Array(fromLength).fill(-1);
  let removed = 0;
  let lastPos = -1;
  for (let j = 0; j < fromLength; j++) {
    const p = toPosOfFrom[j]!;
    if (p >= 0) {
      lastPos = p;
      continue;
    }
    removed++;
    const b = lastPos + 1;
    if (head[b]! < 0) head[b] = j;
    else next[tail[b]!] = j;
    tail[b] = j;
  }
  const out = new Int32Array(pairing.length + removed);
  let k = 0;
  for (let j = head[0]!; j >= 0; j = next[j]!) out[k++] = -1 - j;
  for (let i = 0; i < pairing.length; i++) {
    out[k++] = i;
    for (let j = head[i + 1]!; j >= 0; j = next[j]!) out[k++] = -1 - j;
  }
  return out;
}

/**
 * Two editions as diffPaired reads them: rules paired by lineage (see pairLineages), each rule built
 * only when the diff reads it (the rules of unchanged pairs never are).
 */
export interface PairedEditions {
  from: string;
  to: string;
  /** For each `to` rule, the index of the `from` rule it continues, or -1. */
  pairing: Int32Array;
  fromLength: number;
  /** True when `from` rule j and `to` rule i are the same stored version: nothing to report. */
  unchanged(j: number, i: number): boolean;
  fromRule(j: number): DiffRule;
  toRule(i: number): DiffRule;
  resolveFrom: ResolveLineage;
  resolveTo: ResolveLineage;
  /** Titles (texts) of reference targets, to tell a stale citation's repair from a substantive change. */
  targetTitles?: { before: TitleOf; after: TitleOf };
  /** Section titles ("702" -> its text) of the given sections: the `to` edition's, else the `from` one's. */
  titles(sections: string[]): Map<string, string>;
  glossary?: GlossaryPair | undefined;
}

/** Two glossaries as diffGlossary reads them: terms with their definitions' text ids, and the texts by id. */
export interface GlossaryPair {
  from: Array<[term: string, textId: number]>;
  to: Array<[term: string, textId: number]>;
  text(id: number): DiffText;
}

const sameTexts = (a: DiffText[], b: DiffText[]): boolean => a.length === b.length && a.every((x, i) => x.text === b[i]!.text);
const textsOf = (xs: DiffText[]): string[] => xs.map((x) => x.text);
const SECTION = /^\d{3}$/;

/** Diffs two editions already paired (see loadDiff): reads only the rules of changed pairs, added and removed rules. */
export function diffPaired(e: PairedEditions, opts: DiffOptions = {}): EditionDiff {
  const withSegments = opts.segments ?? true;
  const { resolveFrom, resolveTo } = e;
  const { changes, examples, renumbering } = ruleChanges(e, withSegments);
  // each section once, in document order: a removed rule stands where it stood in `from`, under its old
  // section, which a far diff's renumbering may have moved (Magic 2010: 106 → 406 → 106); stable within a section
  const ordered = inSectionOrder(changes) ? changes : [...changes].sort((a, b) => sectionOrder(a.section, b.section));
  const counted = new Map<string, number>();
  for (const c of ordered) counted.set(c.section, (counted.get(c.section) ?? 0) + 1);
  const titles = e.titles([...counted.keys()].filter((s) => SECTION.test(s)));
  const full: EditionDiff = {
    from: e.from,
    to: e.to,
    changes: ordered,
    sections: [...counted].map(([section, n]) => ({ section, title: titles.get(section) ?? null, changes: n })),
    counts: countChanges(ordered),
    renumbering,
    examples,
    glossary: e.glossary ? diffGlossary(e.glossary, withSegments, resolveFrom, resolveTo, e.targetTitles) : [],
  };
  return narrowDiff(full, opts);
}

/**
 * A diff narrowed to a scope (a part "7", section "702" or rule "702.19" and its subrules) in every part: rule
 * changes, sections, counts, renumbering, examples and the glossary entries citing the scope; and to kinds of change.
 */
export function narrowDiff(d: EditionDiff, opts: Pick<DiffOptions, 'section' | 'kinds'>): EditionDiff {
  const s = opts.section;
  if (s === undefined && !opts.kinds) return d;
  let kept = d.changes;
  if (s !== undefined) kept = kept.filter((c) => inScope(c.after?.number ?? '', s) || inScope(c.before?.number ?? '', s));
  if (opts.kinds) {
    const ks = new Set(opts.kinds);
    kept = kept.filter((c) => c.kinds.some((k) => ks.has(k)));
  }
  const counted = new Map<string, number>();
  for (const c of kept) counted.set(c.section, (counted.get(c.section) ?? 0) + 1);
  const titles = new Map(d.sections.map((x) => [x.section, x.title]));
  return {
    ...d,
    changes: kept,
    sections: [...counted].map(([section, n]) => ({ section, title: titles.get(section) ?? null, changes: n })),
    counts: countChanges(kept),
    renumbering: s === undefined ? d.renumbering : d.renumbering.filter((r) => inScope(r.from, s) || inScope(r.to, s)),
    examples: s === undefined ? d.examples : d.examples.filter((x) => inScope(x.number, s)),
    glossary: scopeGlossary(d.glossary, s),
  };
}

/** Sections in document order: "1" (a part) < "100" < "702" < "905" (numbers of different length by length). */
function sectionOrder(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function inSectionOrder(changes: readonly RuleChange[]): boolean {
  for (let k = 1; k < changes.length; k++) if (sectionOrder(changes[k - 1]!.section, changes[k]!.section) > 0) return false;
  return true;
}

/** Glossary changes of a scoped diff: the entries whose definition (before or after) cites a rule in the scope. */
function scopeGlossary(changes: GlossaryChange[], scope: string | undefined): GlossaryChange[] {
  if (scope === undefined) return changes;
  const cites = (t: string | null) => t !== null && extractReferences(t).some((r) => inScope(r.target, scope) || inScope(scope, r.target));
  return changes.filter((g) => cites(g.before) || cites(g.after));
}

/** Every rule change of two paired editions (`to` order, a removed rule where it stood), changed examples, and renumberings. */
function ruleChanges(e: PairedEditions, withSegments: boolean): Pick<EditionDiff, 'changes' | 'examples' | 'renumbering'> {
  const { pairing, resolveFrom, resolveTo } = e;
  const changes: RuleChange[] = [];
  const examples: ExampleChange[] = [];
  const renumbering: EditionDiff['renumbering'] = [];
  const order = changeOrder(pairing, e.fromLength);
  // (an index loop: for-of over a typed array allocates a result object per element until optimized)
  for (let n = 0; n < order.length; n++) {
    const k = order[n]!;
    if (k < 0) {
      const b = e.fromRule(-1 - k);
      changes.push({
        before: { number: b.number, text: b.text },
        after: null,
        renumbered: false,
        textChange: 'substantive',
        typography: false,
        lineage: b.lineage,
        section: sectionOf(b.number),
        kinds: ['removed'],
      });
      continue;
    }
    const j = pairing[k]!;
    if (j < 0) {
      const r = e.toRule(k);
      changes.push({
        before: null,
        after: { number: r.number, text: r.text },
        renumbered: false,
        textChange: 'substantive',
        typography: false,
        lineage: r.lineage,
        section: sectionOf(r.number),
        kinds: ['added'],
      });
      continue;
    }
    if (e.unchanged(j, k)) continue;
    const b = e.fromRule(j);
    const r = e.toRule(k);
    if (b.number !== r.number) renumbering.push({ from: b.number, to: r.number });
    if (!sameTexts(b.examples, r.examples)) {
      const textChange = classifyTexts(b.examples, r.examples, resolveFrom, resolveTo, e.targetTitles);
      examples.push({ lineage: r.lineage, number: r.number, before: textsOf(b.examples), after: textsOf(r.examples), textChange });
    }
    if (b.number === r.number && b.text === r.text) continue;
    const cmp = compareTexts(b, r, resolveFrom, resolveTo, e.targetTitles);
    const kinds: ChangeKind[] = [];
    if (b.number !== r.number) kinds.push('renumbered');
    if (cmp.textChange !== 'none') kinds.push(cmp.textChange);
    if (cmp.typography) kinds.push('typography');
    changes.push({
      before: { number: b.number, text: b.text },
      after: { number: r.number, text: r.text },
      renumbered: b.number !== r.number,
      textChange: cmp.textChange,
      typography: cmp.typography,
      lineage: r.lineage,
      section: sectionOf(r.number),
      kinds,
    });
    if (cmp.correction) changes[changes.length - 1]!.correction = true;
    if (withSegments && b.text !== r.text) changes[changes.length - 1]!.segments = wordDiff(b.text, r.text);
  }
  return { changes, examples, renumbering };
}

/** Counts rule changes by kind (a renumbered rule may be reworded too: it counts in both), and in all. */
export function countChanges(changes: readonly RuleChange[]): EditionDiff['counts'] {
  const counts = { added: 0, removed: 0, renumbered: 0, substantive: 0, references: 0, typography: 0, total: 0 };
  for (const c of changes) {
    counts.total++;
    for (const k of c.kinds) counts[k]++;
  }
  return counts;
}

const CLASS_ORDER: TextClass[] = ['none', 'typography', 'references', 'correction', 'substantive'];

/** The strongest class among paired texts (examples, definitions); 'substantive' when their number differs. */
function classifyTexts(
  before: DiffText[],
  after: DiffText[],
  resolveFrom: ResolveLineage,
  resolveTo: ResolveLineage,
  titles?: { before: TitleOf; after: TitleOf },
): TextClass {
  if (before.length !== after.length) return 'substantive';
  let worst = 0;
  const last = CLASS_ORDER.length - 1;
  for (let k = 0; k < before.length && worst < last; k++) {
    const cmp = compareTexts(before[k]!, after[k]!, resolveFrom, resolveTo, titles);
    worst = Math.max(worst, CLASS_ORDER.indexOf(textClass(cmp)));
  }
  return CLASS_ORDER[worst]!;
}

/** Glossary changes by term (the same term: see termKey): added, removed and reworded definitions (only their texts are read). */
export function diffGlossary(
  g: GlossaryPair,
  withSegments = true,
  resolveFrom: ResolveLineage = () => null,
  resolveTo: ResolveLineage = () => null,
  titles?: { before: TitleOf; after: TitleOf },
): GlossaryChange[] {
  const before = new Map(g.from.map(([term, id]) => [termKey(term), id]));
  const out: GlossaryChange[] = [];
  const seen = new Set<string>();
  for (const [term, id] of g.to) {
    const k = termKey(term);
    seen.add(k);
    const old = before.get(k);
    if (old === undefined) out.push({ term, before: null, after: g.text(id).text, textChange: 'substantive' });
    else if (old !== id) {
      // (a text id is one text: the same id, the same definition)
      const b = g.text(old);
      const a = g.text(id);
      if (b.text === a.text) continue;
      out.push({
        term,
        before: b.text,
        after: a.text,
        textChange: classifyTexts([b], [a], resolveFrom, resolveTo, titles),
        ...(withSegments ? { segments: wordDiff(b.text, a.text) } : {}),
      });
    }
  }
  for (const [term, id] of g.from) if (!seen.has(termKey(term))) out.push({ term, before: g.text(id).text, after: null, textChange: 'substantive' });
  return out;
}

/** The exact JSON shape of `crkb diff --json`: rule changes, then glossary and example changes, all with the same text classes. */
export function diffToJson(d: EditionDiff): {
  from: string;
  to: string;
  changes: Array<Pick<RuleChange, 'before' | 'after' | 'renumbered' | 'mergedInto' | 'splitFrom'> & { textChange: TextClass }>;
  glossary: Array<{ term: string; before: string | null; after: string | null; textChange: TextClass }>;
  examples: Array<{ number: string; before: string[]; after: string[]; textChange: TextClass }>;
} {
  return {
    from: d.from,
    to: d.to,
    changes: d.changes.map((c) => ({
      before: c.before,
      after: c.after,
      renumbered: c.renumbered,
      textChange: textClass(c),
      ...(c.mergedInto !== undefined ? { mergedInto: c.mergedInto } : {}),
      ...(c.splitFrom !== undefined ? { splitFrom: c.splitFrom } : {}),
    })),
    glossary: d.glossary.map((g) => ({ term: g.term, before: g.before, after: g.after, textChange: g.textChange })),
    examples: d.examples.map((x) => ({ number: x.number, before: x.before, after: x.after, textChange: x.textChange })),
  };
}

/**
 * Marks removed rules merged into a rule of `to` and added rules split off a rule of `from`, from
 * the links recorded along the chain between the two editions ([kind, lineage, earlier lineage]:
 * a merge folds the earlier lineage into the other, a split makes the other out of it), followed
 * through later merges and splits.
 */
export function markLinks(
  changes: RuleChange[],
  links: Array<{ kind: 'split' | 'merge'; lineage: number; prevLineage: number }>,
  from: { numbers: ArrayLike<string>; lineages: ArrayLike<number> },
  to: { numbers: ArrayLike<string>; lineages: ArrayLike<number> },
): void {
  if (links.length === 0) return;
  const mergedInto = new Map<number, number>();
  const splitFrom = new Map<number, number>();
  for (const l of links) {
    if (l.kind === 'merge') mergedInto.set(l.prevLineage, l.lineage);
    else splitFrom.set(l.lineage, l.prevLineage);
  }
  // numbers only of the lineages links lead to (one pass over each edition, none without links)
  const wanted = new Set<number>([...mergedInto.values(), ...splitFrom.values()]);
  const numberIn = (e: typeof from): Map<number, string> => {
    const m = new Map<number, string>();
    for (let k = 0; k < e.lineages.length; k++) {
      const l = e.lineages[k]!;
      if (wanted.has(l) && !m.has(l)) m.set(l, e.numbers[k]!);
    }
    return m;
  };
  const touched = changes.some((c) => (c.after === null && mergedInto.has(c.lineage)) || (c.before === null && splitFrom.has(c.lineage)));
  if (!touched) return;
  const fromNumbers = numberIn(from);
  const toNumbers = numberIn(to);
  // a few hops at most: a rule merged into one that was itself merged later
  const follow = (start: number, step: Map<number, number>, found: Map<number, string>): string | undefined => {
    let cur = start;
    for (let hop = 0; hop < 8; hop++) {
      const next = step.get(cur);
      if (next === undefined) return undefined;
      const n = found.get(next);
      if (n !== undefined) return n;
      cur = next;
    }
    return undefined;
  };
  for (const c of changes) {
    if (c.after === null) {
      const n = follow(c.lineage, mergedInto, toNumbers);
      if (n !== undefined) c.mergedInto = n;
    } else if (c.before === null) {
      const n = follow(c.lineage, splitFrom, fromNumbers);
      if (n !== undefined) c.splitFrom = n;
    }
  }
}
