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
 * Loads the engine adapter from src/engine/index.ts when it exports
 * diffEditions / history; an empty engine otherwise.
 */
export async function loadEngine(): Promise<Engine> {
  // A variable specifier: the engine module may not exist yet while it is being written.
  const spec = '../engine/index.js';
  let mod: Record<string, unknown>;
  try {
    mod = (await import(spec)) as Record<string, unknown>;
  } catch {
    return {};
  }
  const engine: Engine = {};
  void mod;
  return engine;
}
