/**
 * Provenance of a fragment, pure: which stored editions' text a run of rules
 * matches, and rule by rule where it disagrees with the best of them.
 */
import { hash53 } from './hash53.js';
import { tokenizeWords, wordDiff, type DiffSegment } from '../../src/engine/wordDiff.js';
import { normalizeText } from '../../src/core/normalize.js';

/** How a fragment rule compares with one edition's rule of the same number. */
type MatchStatus = 'match' | 'near' | 'differs' | 'absent';

/** A rule of the fragment: its number and text as published. */
export interface FragmentRuleText {
  number: string;
  text: string;
}

/** One edition's stored text for a rule number. */
interface OfficialText {
  /** Distinct-text id (texts.id), used to memoize comparisons; any stable key works. */
  textId: number;
  /** hash53 of the normalized text (texts.norm_h). */
  normH: number;
  /** Text as published; may be null when normH equals the fragment rule's (exact match, body not needed). */
  text: string | null;
}

/** One stored edition with its texts for the fragment's rule numbers (numbers it lacks are absent). */
export interface EditionTexts {
  editionId: number;
  effectiveDate: string;
  label: string;
  official: boolean;
  rules: Map<string, OfficialText>;
}

/** Counts of one edition against the fragment. */
interface EditionScore {
  editionId: number;
  effectiveDate: string;
  label: string;
  exact: number;
  near: number;
  differs: number;
  absent: number;
}

/** A run of consecutive editions (by date) sharing the best score. */
export interface EditionRange {
  from: string;
  to: string;
  fromId: number;
  toId: number;
  editions: number;
  exact: number;
  near: number;
}

/** One fragment rule compared with the reference edition. */
interface RuleComparison {
  number: string;
  status: MatchStatus;
  text: string;
  /** The reference edition's text; null when absent there, or an exact match whose body was not fetched. */
  official: string | null;
  /** Word similarity of the normalized texts, 0..1 (1 for an exact match). */
  similarity: number;
  /** Word diff official → fragment, for near and differing rules. */
  diff?: DiffSegment[];
}

/** The provenance report of a fragment. */
export interface ProvenanceReport {
  /** Distinct rule numbers compared. */
  total: number;
  /** Every candidate edition, oldest first. */
  editions: EditionScore[];
  /** Best range (longest run of editions with the top score; the latest on ties), or null when nothing matched. */
  best: EditionRange | null;
  /** Other runs of editions with the same top score. */
  alsoMatches: EditionRange[];
  /**
   * Edition the rules were compared with one by one: the one asked for, else the last of the best range,
   * else (nothing matched) the latest edition holding most of the fragment's numbers.
   */
  reference: { editionId: number; effectiveDate: string; label: string } | null;
  /** (exact + near) / total against the reference edition. */
  matchRatio: number;
  /** Every fragment rule against the reference edition, in fragment order. */
  rules: RuleComparison[];
  /** The rules that are not an exact match of the reference edition. */
  disagreements: RuleComparison[];
  /** "matches 2020-09-25 … 2021-06-18 on 24 of 24 rules; 0 disagreements". */
  summary: string;
}

/** Options of identify(). */
export interface IdentifyOptions {
  /** Word similarity at or above which a differing text counts as near (default 0.9). */
  nearThreshold?: number;
  /** Compare rule by rule with this edition instead of the best range's last one. */
  referenceId?: number;
}

/** hash53 of a text's normalized form, as texts.norm_h stores it. */
export function normHash(text: string): number {
  return hash53(normalizeText(text));
}

function words(s: string): number {
  let n = 0;
  for (const t of tokenizeWords(s)) if (!/^\s+$/.test(t)) n++;
  return n;
}

/**
 * A looser fold than normalizeText for texts whose hashes differ: also drops
 * quotation marks, which scraped pages lose like apostrophes.
 */
export function looseText(text: string): string {
  return normalizeText(text).replace(/"/g, '').replace(/\s+/g, ' ').trim();
}

/** Word similarity of two texts after normalization: 2·common words / (words of a + words of b). */
export function wordSimilarity(a: string, b: string): number {
  const na = normalizeText(a);
  const nb = normalizeText(b);
  if (na === nb) return 1;
  const total = words(na) + words(nb);
  if (total === 0) return 1;
  let common = 0;
  for (const seg of wordDiff(na, nb)) if (seg.op === 'equal') common += words(seg.text);
  return (2 * common) / total;
}

/**
 * Compares a fragment's rules with the texts of the same numbers in each
 * edition: exact (normalized hash), near (word similarity ≥ 0.9), differing or
 * absent. Reports the best contiguous range of editions and, against the
 * reference edition, every rule that disagrees.
 */
export function identify(fragment: FragmentRuleText[], editions: EditionTexts[], opts: IdentifyOptions = {}): ProvenanceReport {
  const nearAt = opts.nearThreshold ?? 0.9;
  const rules: Array<FragmentRuleText & { normH: number }> = [];
  const seen = new Set<string>();
  for (const r of fragment) {
    if (seen.has(r.number)) continue;
    seen.add(r.number);
    rules.push({ ...r, normH: normHash(r.text) });
  }
  const ordered = [...editions].sort((a, b) => (a.effectiveDate === b.effectiveDate ? a.editionId - b.editionId : a.effectiveDate < b.effectiveDate ? -1 : 1));
  // Similarity per (number, text id): the same official text recurs across many editions.
  const memo = new Map<string, number>();
  const compare = (r: FragmentRuleText & { normH: number }, o: OfficialText | undefined): { status: MatchStatus; similarity: number } => {
    if (!o) return { status: 'absent', similarity: 0 };
    if (o.normH === r.normH) return { status: 'match', similarity: 1 };
    const key = `${r.number}\u0000${o.textId}`;
    let sim = memo.get(key);
    if (sim === undefined) {
      sim = o.text === null ? 0 : looseText(r.text) === looseText(o.text) ? 1 : Math.min(wordSimilarity(r.text, o.text), 0.999);
      memo.set(key, sim);
    }
    return { status: sim === 1 ? 'match' : sim >= nearAt ? 'near' : 'differs', similarity: sim };
  };
  const scores: EditionScore[] = ordered.map((e) => {
    const s: EditionScore = { editionId: e.editionId, effectiveDate: e.effectiveDate, label: e.label, exact: 0, near: 0, differs: 0, absent: 0 };
    for (const r of rules) {
      const { status } = compare(r, e.rules.get(r.number));
      if (status === 'match') s.exact++;
      else if (status === 'near') s.near++;
      else if (status === 'differs') s.differs++;
      else s.absent++;
    }
    return s;
  });
  const { best, alsoMatches } = bestRanges(scores);
  const refEdition =
    opts.referenceId !== undefined
      ? ordered.find((e) => e.editionId === opts.referenceId)
      : best
        ? ordered.find((e) => e.editionId === best.toId)
        : mostPresent(ordered, scores);
  const comparisons: RuleComparison[] = rules.map((r) => {
    const o = refEdition?.rules.get(r.number);
    const { status, similarity } = compare(r, o);
    const c: RuleComparison = { number: r.number, status, text: r.text, official: o ? o.text : null, similarity };
    if (o?.text != null && (status === 'near' || status === 'differs')) c.diff = foldTypography(wordDiff(o.text, r.text));
    return c;
  });
  const disagreements = comparisons.filter((c) => c.status !== 'match');
  const refScore = refEdition ? scores.find((s) => s.editionId === refEdition.editionId) : undefined;
  const matchRatio = refScore && rules.length > 0 ? (refScore.exact + refScore.near) / rules.length : 0;
  const report: ProvenanceReport = {
    total: rules.length,
    editions: scores,
    best,
    alsoMatches,
    reference: refEdition ? { editionId: refEdition.editionId, effectiveDate: refEdition.effectiveDate, label: refEdition.label } : null,
    matchRatio,
    rules: comparisons,
    disagreements,
    summary: '',
  };
  report.summary = summarize(report);
  return report;
}

/**
 * Turns changes that are typography only (quotes, apostrophes, ™, dashes, lost
 * characters) into equal runs showing the fragment's text, so the diff shows
 * the words that really differ.
 */
function foldTypography(segs: DiffSegment[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  const push = (op: DiffSegment['op'], text: string): void => {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    if (s.op === 'equal') {
      push('equal', s.text);
      continue;
    }
    const del = s.op === 'delete' ? s.text : '';
    const next = segs[i + 1];
    const ins = s.op === 'insert' ? s.text : next?.op === 'insert' ? next.text : '';
    if (s.op === 'delete' && next?.op === 'insert') i++;
    if (looseText(del) === looseText(ins)) {
      push('equal', ins);
    } else {
      push('delete', del);
      push('insert', ins);
    }
  }
  return out;
}

/** With no edition matching any rule: the latest edition holding most of the fragment's numbers, if any. */
function mostPresent(ordered: EditionTexts[], scores: EditionScore[]): EditionTexts | undefined {
  let best: EditionScore | undefined;
  for (const s of scores) if (s.absent < (best?.absent ?? Infinity) || (best && s.absent === best.absent)) best = s;
  if (!best || best.differs === 0) return undefined;
  return ordered.find((e) => e.editionId === best.editionId);
}

function better(a: EditionScore, b: EditionScore): number {
  return a.exact + a.near !== b.exact + b.near ? a.exact + a.near - (b.exact + b.near) : a.exact - b.exact;
}

function bestRanges(scores: EditionScore[]): { best: EditionRange | null; alsoMatches: EditionRange[] } {
  let top: EditionScore | null = null;
  for (const s of scores) if (s.exact + s.near > 0 && (top === null || better(s, top) > 0)) top = s;
  if (top === null) return { best: null, alsoMatches: [] };
  const runs: EditionRange[] = [];
  let run: EditionRange | null = null;
  for (const s of scores) {
    if (better(s, top) === 0) {
      if (run) {
        run.to = s.effectiveDate;
        run.toId = s.editionId;
        run.editions++;
      } else {
        run = { from: s.effectiveDate, to: s.effectiveDate, fromId: s.editionId, toId: s.editionId, editions: 1, exact: s.exact, near: s.near };
        runs.push(run);
      }
    } else run = null;
  }
  let best = runs[0]!;
  for (const r of runs) if (r.editions >= best.editions) best = r;
  return { best, alsoMatches: runs.filter((r) => r !== best) };
}

/** "2020-09-25 … 2021-06-18", or one date. */
export function rangeText(r: Pick<EditionRange, 'from' | 'to'>): string {
  return r.from === r.to ? r.from : `${r.from} … ${r.to}`;
}

function summarize(r: ProvenanceReport): string {
  if (r.total === 0) return 'no rules to compare';
  if (!r.best) {
    const present = r.editions.reduce((n, e) => Math.max(n, r.total - e.absent), 0);
    return present === 0
      ? `matches no stored edition (none of its ${r.total} rule numbers is in any)`
      : `matches no stored edition (0 of ${r.total} rules; at most ${present} of its numbers exist in one, with other text)`;
  }
  const b = r.best;
  const near = b.near > 0 ? ` (${b.near} near)` : '';
  const others = r.alsoMatches.length > 0 ? `, also ${r.alsoMatches.map(rangeText).join(', ')}` : '';
  const ref = r.reference && r.reference.editionId !== b.toId ? ` against ${r.reference.effectiveDate}` : '';
  const n = r.disagreements.length;
  return `matches ${rangeText(b)} on ${b.exact + b.near} of ${r.total} rules${near}${others}; ${n} disagreement${n === 1 ? '' : 's'}${ref}`;
}
