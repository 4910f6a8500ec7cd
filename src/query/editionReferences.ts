import type { GlossaryRecord, RuleRecord, TextRefRecord } from '../core/records.js';
import { citedTitle, titleMatches } from '../core/references.js';
import type { Snapshot } from '../db/Snapshot.js';
import { refTarget } from '../core/policyReferences.js';

/** A reference whose target is no rule, section or part of its edition. */
export interface DanglingRef {
  source: 'rule' | 'example' | 'glossary';
  /** The citing rule's number, or the glossary term. */
  at: string;
  target: string;
  kind: 'rule' | 'section' | 'part';
  /** The mention as it reads in the text. */
  mention: string;
}

/** A reference whose target exists but is not what its quoted title names. */
export interface StaleRef extends DanglingRef {
  /** The title the citation quotes. */
  cited: string;
  /** The target's own title (its text) in the edition. */
  title: string;
}

/** Rules of an edition whose text or examples cite each number, by cited number, in document order. */
export function citing(s: Snapshot, editionId: number, numbers: readonly string[]): Map<string, RuleRecord[]> {
  return new Map(
    numbers.map((n) => {
      const positions = new Set<number>();
      for (const t of s.textsCitingNumber(n)) {
        for (const p of s.positionsUsingText(editionId, t, 'text')) positions.add(p);
        for (const p of s.positionsUsingText(editionId, t, 'example')) positions.add(p);
      }
      return [n, [...positions].sort((a, b) => a - b).map((p) => s.ruleAt(editionId, p)!)];
    }),
  );
}

/** Glossary entries of an edition citing each number. */
export function glossaryCiting(s: Snapshot, editionId: number, numbers: readonly string[]): Map<string, GlossaryRecord[]> {
  return new Map(
    numbers.map((n) => {
      const out = s.textsCitingNumber(n).flatMap((t) => s.glossaryUsingText(editionId, t));
      return [n, out.sort((a, b) => a.ord - b.ord)];
    }),
  );
}

/** Every reference of an edition's texts (rule texts, examples, glossary definitions), in document order. */
function eachRef(s: Snapshot, editionId: number, f: (source: DanglingRef['source'], at: string, text: string, ref: TextRefRecord) => void): void {
  const each = (source: DanglingRef['source'], at: string, textId: number): void => {
    const refs = s.refsOfText(textId);
    if (refs.length === 0) return;
    const text = s.text(textId);
    // a reference to another document ("mtr:4.1", "cr:704.3") is not its edition's to resolve
    for (const r of refs) if (refTarget(r.target).family === null) f(source, at, text, r);
  };
  for (let p = 0; p < s.ruleCount(editionId); p++) {
    const r = s.ruleAt(editionId, p)!;
    each('rule', r.number, r.textId);
    for (const x of r.exampleIds) each('example', r.number, x);
  }
  for (const g of s.glossary(editionId)) each('glossary', g.term, g.textId);
}

/** References of an edition (rule texts, examples, glossary) that resolve to nothing in it. */
export function danglingRefs(s: Snapshot, editionId: number): DanglingRef[] {
  const numbers = new Set(s.numbers(editionId));
  const parts = new Set(s.parts(editionId).map((p) => p.number));
  const out: DanglingRef[] = [];
  eachRef(s, editionId, (source, at, text, r) => {
    if (numbers.has(r.target) || (r.kind === 'part' && parts.has(r.target))) return;
    out.push({ source, at, target: r.target, kind: r.kind, mention: text.slice(r.start, r.end) });
  });
  return out;
}

/** References whose quoted title no longer names their (existing) target. */
export function staleRefs(s: Snapshot, editionId: number): StaleRef[] {
  const parts = new Map(s.parts(editionId).map((p) => [p.number, p.title]));
  const out: StaleRef[] = [];
  eachRef(s, editionId, (source, at, text, r) => {
    const after = text.slice(r.end, r.end + 4);
    if (!after.includes('"') && !after.includes('“')) return;
    const title = r.kind === 'part' ? parts.get(r.target) : s.ruleByNumber(editionId, r.target)?.text;
    if (title === undefined) return;
    const cited = citedTitle(text, r.end);
    if (cited === null || titleMatches(cited, title)) return;
    out.push({ source, at, target: r.target, kind: r.kind, mention: text.slice(r.start, r.end), cited, title });
  });
  return out;
}
