import type { Db } from '../db/openDb.js';
import type { EditionInfo } from '../db/Reader.js';

/** One word-level diff run. */
export interface SegmentData {
  op: 'equal' | 'insert' | 'delete';
  text: string;
}

/** One rule change between two editions, in the shape of `crkb diff --json`. */
export interface DiffChangeData {
  before: { number: string; text: string } | null;
  after: { number: string; text: string } | null;
  renumbered: boolean;
  textChange: 'none' | 'references' | 'substantive';
  segments?: SegmentData[];
}

/** One step of a rule's history. */
export interface HistoryStepData {
  effectiveDate: string;
  number: string;
  text: string;
  renumbered: boolean;
  textChange: 'none' | 'references' | 'substantive' | null;
  segments?: SegmentData[];
}

/**
 * What the API needs from the diff/history engine (src/engine). Both are
 * optional: while the engine lacks them, the API answers NOT_IMPLEMENTED.
 */
export interface Engine {
  diff?(db: Db, from: EditionInfo, to: EditionInfo, section: string | null): DiffChangeData[];
  history?(db: Db, edition: EditionInfo, number: string): { lineageId: number | null; steps: HistoryStepData[] } | null;
}

/**
 * The engine as the API uses it: diffs and histories read through the
 * lineage store (src/db/Lineage) and computed by src/engine. Recent diffs are
 * kept, so paging through one costs one computation.
 */
export async function loadEngine(): Promise<Engine> {
  const [{ Lineage }, { loadDiff }, { ruleHistory }, { compareRuleText }] = await Promise.all([
    import('../db/Lineage.js'),
    import('../engine/loadDiff.js'),
    import('../engine/history.js'),
    import('../engine/compareRule.js'),
  ]);
  const lineages = new WeakMap<Db, InstanceType<typeof Lineage>>();
  const lineageOf = (db: Db) => {
    let l = lineages.get(db);
    if (!l) lineages.set(db, (l = new Lineage(db)));
    return l;
  };
  const recent = new Map<string, DiffChangeData[]>();
  return {
    diff(db, from, to, section) {
      const key = `${from.id}:${to.id}:${section ?? ''}`;
      const hit = recent.get(key);
      if (hit) return hit;
      // Rule changes only (the API's diff has no example or glossary fields), texts loaded as needed.
      const d = loadDiff(db, from, to, { ...(section ? { section } : {}), rulesOnly: true });
      const out: DiffChangeData[] = d.changes.map((c) => ({
        before: c.before,
        after: c.after,
        renumbered: c.renumbered,
        textChange: c.textChange,
        ...(c.segments ? { segments: c.segments } : {}),
      }));
      if (recent.size >= 16) recent.delete(recent.keys().next().value!);
      recent.set(key, out);
      return out;
    },
    history(db, edition, number) {
      const l = lineageOf(db);
      const id = l.lineageOf(edition.id, number);
      if (id === null) return null;
      const rows = l.lineageRows(id);
      const editionOf = new Map(rows.map((r) => [r.date, r.editionId]));
      const dates = l.chain('cr').map((e) => e.effectiveDate);
      const resolver = (date: string) => {
        const eid = editionOf.get(date)!;
        return (target: string): number | null => l.lineageOf(eid, target);
      };
      const h = ruleHistory(
        rows.map((r) => ({ date: r.date, number: r.number, text: r.text, lineage: r.lineage, examples: r.examples })),
        dates,
        (prev, cur) => compareRuleText(prev.text, cur.text, resolver(prev.date), resolver(cur.date)).textChange,
      );
      if (!h) return null;
      return {
        lineageId: h.lineage,
        steps: h.steps.map((s) => ({
          effectiveDate: s.date,
          number: s.number,
          text: s.text,
          renumbered: s.renumbered,
          textChange: s.change === 'added' ? null : (s.textChange ?? 'none'),
          ...(s.segments ? { segments: s.segments } : {}),
        })),
      };
    },
  };
}
