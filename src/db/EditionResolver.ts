import type { Statement } from 'better-sqlite3';
import type { Db } from './openDb.js';

/** An edition as the read side sees it. */
export interface EditionInfo {
  id: number;
  family: string;
  effectiveDate: string;
  official: boolean;
  label: string;
  setCode: string | null;
  setName: string | null;
  title: string | null;
}

/** An edition row as EDITION_COLS select it (SQLite has no booleans). */
export type EditionRowDb = Omit<EditionInfo, 'official'> & { official: number };

/** Columns of an EditionRowDb, selected from `editions`. */
export const EDITION_COLS = `id, family, effective_date AS effectiveDate, official, label, set_code AS setCode,
  set_name AS setName, title`;

/**
 * What an edition argument names: the edition, and whether the argument was its own effective
 * date or label (an answer about it never changes), or what is wrong with the argument.
 */
export type EditionResolution = { row: EditionRowDb; exact: boolean; problem?: undefined } | { row: null; exact: false; problem: string };

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written YYYY-MM-DD. */
function isDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * Resolves edition arguments, the same way for the CLI and the API: "latest" (or nothing),
 * an effective date, any other date (the official edition in force that day), or the label
 * of an unofficial edition ("unofficial:…").
 */
export class EditionResolver {
  private readonly s: Record<'latest' | 'exact' | 'inForce' | 'earliest' | 'byLabel', Statement>;

  constructor(db: Db) {
    const official = `family = @family AND official = 1`;
    this.s = {
      latest: db.prepare(`SELECT ${EDITION_COLS} FROM editions WHERE ${official} ORDER BY effective_date DESC LIMIT 1`),
      exact: db.prepare(`SELECT ${EDITION_COLS} FROM editions WHERE ${official} AND effective_date = @date AND label = ''`),
      inForce: db.prepare(
        `SELECT ${EDITION_COLS} FROM editions WHERE ${official} AND effective_date <= @date ORDER BY effective_date DESC LIMIT 1`,
      ),
      earliest: db.prepare(`SELECT effective_date FROM editions WHERE ${official} ORDER BY effective_date LIMIT 1`).pluck(),
      byLabel: db.prepare(`SELECT ${EDITION_COLS} FROM editions WHERE family = @family AND label = @label`),
    };
  }

  /** Resolves one argument of a family ("cr" or "rulings"). */
  resolve(arg: string | null | undefined, family = 'cr'): EditionResolution {
    const a = (arg ?? '').trim();
    const found = (row: EditionRowDb | undefined, exact: boolean, problem: () => string): EditionResolution =>
      row ? { row, exact } : { row: null, exact: false, problem: problem() };
    if (a === '' || a.toLowerCase() === 'latest') {
      return found(this.s.latest.get({ family }) as EditionRowDb | undefined, false, () => `no ${family} editions are stored`);
    }
    if (a.startsWith('unofficial:')) {
      return found(this.s.byLabel.get({ family, label: a }) as EditionRowDb | undefined, true, () => `no unofficial ${family} edition is labelled "${a.slice(0, 60)}"`);
    }
    if (!isDate(a)) {
      return { row: null, exact: false, problem: `edition "${a.slice(0, 40)}" is not a date (YYYY-MM-DD), "latest" or an "unofficial:…" label` };
    }
    const exact = this.s.exact.get({ family, date: a }) as EditionRowDb | undefined;
    if (exact) return { row: exact, exact: true };
    return found(this.s.inForce.get({ family, date: a }) as EditionRowDb | undefined, false, () => {
      const first = this.s.earliest.get({ family }) as string | undefined;
      return first ? `no ${family} edition was in force on ${a}: the earliest stored is ${first}` : `no ${family} editions are stored`;
    });
  }
}
