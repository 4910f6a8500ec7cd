import type { TextClass } from './compareRule.js';
import { wordDiff } from './wordDiff.js';
import type { DiffSegment } from './wordDiff.js';

/** One rule version as read from storage: the edition it is in, its number and text. */
export interface HistoryRow {
  date: string;
  number: string;
  text: string;
  lineage: number;
  examples?: string[];
}

/** One edition in a rule's history. */
export interface HistoryStep {
  date: string;
  number: string;
  text: string;
  /** What changed since the previous appearance: 'added' for the first. */
  change: 'added' | 'unchanged' | 'changed' | 'returned';
  renumbered: boolean;
  /** From the previous appearance (the diff's classes: typography when only typography changed); only when the text changed. */
  textChange?: TextClass;
  examplesChanged: boolean;
  segments?: DiffSegment[];
  /** Number before this step, when renumbered. */
  previousNumber?: string;
  /** What changed below the rule since the previous appearance (its subrules followed by lineage); only for a rule with subrules. */
  subrules?: SubruleChanges;
}

/** Subrules a history step added, removed, reworded or renumbered, by number (the step's edition, or the previous one for a removal). */
export interface SubruleChanges {
  /** New below the rule; `from` when the rule was elsewhere before (moved in). */
  added: Array<{ number: string; from?: string }>;
  /** Gone from below the rule (numbers of the previous appearance); `to` when the rule is elsewhere now (moved out). */
  removed: Array<{ number: string; to?: string }>;
  /** Text or examples changed (the diff's classes; none with examplesChanged when only examples changed). */
  changed: Array<{ number: string; textChange: TextClass; examplesChanged: boolean }>;
  /** Renumbered within the rule (beyond a renumbering of the rule itself). */
  renumbered: Array<{ from: string; to: string }>;
}

export interface RuleHistory {
  lineage: number;
  first: string;
  last: string;
  /** Every number the rule has had, in order of first use. */
  numbers: string[];
  steps: HistoryStep[];
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * Shapes a rule's history from its rows (any order). `editions` lists every edition date in
 * order, so a gap (the rule missing from an edition, then back) is shown as 'returned'.
 * `classify` tells a reference update from a substantive change.
 */
export function ruleHistory<R extends HistoryRow>(rows: R[], editions: string[] = [], classify?: (prev: R, cur: R) => TextClass): RuleHistory | null {
  if (rows.length === 0) return null;
  // ISO dates order as strings (localeCompare would load ICU's collator: tens of ms in a fresh process)
  const sorted = [...rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const order = new Map(editions.map((d, k) => [d, k]));
  const steps: HistoryStep[] = [];
  const numbers: string[] = [];
  let prev: R | undefined;
  for (const r of sorted) {
    if (!numbers.includes(r.number)) numbers.push(r.number);
    if (!prev) {
      steps.push({ date: r.date, number: r.number, text: r.text, change: 'added', renumbered: false, examplesChanged: false });
      prev = r;
      continue;
    }
    const pk = order.get(prev.date);
    const ck = order.get(r.date);
    const gap = pk !== undefined && ck !== undefined && ck - pk > 1;
    const textChanged = prev.text !== r.text;
    const examplesChanged = !sameList(prev.examples ?? [], r.examples ?? []);
    const renumbered = prev.number !== r.number;
    const step: HistoryStep = {
      date: r.date,
      number: r.number,
      text: r.text,
      change: gap ? 'returned' : textChanged || renumbered || examplesChanged ? 'changed' : 'unchanged',
      renumbered,
      examplesChanged,
    };
    if (renumbered) step.previousNumber = prev.number;
    if (textChanged) {
      step.textChange = classify ? classify(prev, r) : 'substantive';
      step.segments = wordDiff(prev.text, r.text);
    }
    steps.push(step);
    prev = r;
  }
  return { lineage: sorted[0]!.lineage, first: sorted[0]!.date, last: sorted[sorted.length - 1]!.date, numbers, steps };
}
