import type { EditionInfo } from './records.js';

/**
 * What an edition argument names: the edition, and whether the argument pins it (an effective
 * date, a label or a set code: an answer about it never changes), or what is wrong with it.
 */
export type EditionResolution = { edition: EditionInfo; exact: boolean; problem?: undefined } | { edition: null; exact: false; problem: string };

/** Longest edition argument worth reading: longer ones are mistakes, refused before any lookup. */
const MAX_EDITION_ARG = 64;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const SET_CODE_RE = /^[A-Za-z0-9]{2,6}$/;

/** True for a real calendar date written YYYY-MM-DD. */
function isDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** The official edition of `family` in force on `date`: the last effective by then (editions sorted by date), or null. Pure. */
export function editionInForce(editions: readonly EditionInfo[], family: string, date: string): EditionInfo | null {
  let found: EditionInfo | null = null;
  for (const e of editions) if (e.family === family && e.official && e.effectiveDate <= date) found = e;
  return found;
}

// A family's official editions by list (a snapshot's list never changes): resolving is then no scan of every edition.
const officialByList = new WeakMap<readonly EditionInfo[], Map<string, EditionInfo[]>>();

function officialOf(editions: readonly EditionInfo[], family: string): EditionInfo[] {
  let byFamily = officialByList.get(editions);
  if (!byFamily) officialByList.set(editions, (byFamily = new Map<string, EditionInfo[]>()));
  let official = byFamily.get(family);
  if (!official) byFamily.set(family, (official = editions.filter((e) => e.family === family && e.official)));
  return official;
}

/**
 * Resolves an edition argument against the stored editions (sorted by date), the same way for
 * every edge: "latest" (or nothing), an effective date, any other date (the official edition in
 * force that day), a set code ("AFR", case-insensitive: the first edition published with that
 * set) or the label of an unofficial edition ("unofficial:…"). Pure.
 */
export function resolveEdition(editions: readonly EditionInfo[], arg: string | null | undefined, family = 'cr'): EditionResolution {
  const a = (arg ?? '').trim();
  const fail = (problem: string): EditionResolution => ({ edition: null, exact: false, problem });
  if (a.length > MAX_EDITION_ARG) return fail(`edition "${a.slice(0, 40)}…" is longer than ${MAX_EDITION_ARG} characters`);
  const official = officialOf(editions, family);
  if (a === '' || a.toLowerCase() === 'latest') {
    const last = official.at(-1);
    return last ? { edition: last, exact: false } : fail(`no ${family} editions are stored`);
  }
  if (a.startsWith('unofficial:')) {
    const e = editions.find((x) => x.family === family && x.label === a);
    return e ? { edition: e, exact: true } : fail(`no unofficial ${family} edition is labelled "${a.slice(0, 60)}"`);
  }
  if (isDate(a)) {
    const exact = official.find((e) => e.effectiveDate === a && e.label === '');
    if (exact) return { edition: exact, exact: true };
    const inForce = editionInForce(official, family, a);
    if (inForce) return { edition: inForce, exact: false };
    const first = official[0];
    return fail(first ? `no ${family} edition was in force on ${a}: the earliest stored is ${first.effectiveDate}` : `no ${family} editions are stored`);
  }
  if (SET_CODE_RE.test(a)) {
    const code = a.toUpperCase();
    const e = official.find((x) => x.setCode?.toUpperCase() === code);
    if (e) return { edition: e, exact: true };
    // a set code of an edition newer than the database (or a typo): say what is stored
    const last = official.at(-1);
    if (last && !/^\d+$/.test(a)) {
      const newest = `the newest stored is ${last.effectiveDate}${last.setCode ? ` (${last.setCode})` : ''}`;
      return fail(
        `no stored edition was published with a set coded "${code}" (${newest}); an edition is a date (YYYY-MM-DD), "latest", a set code or an "unofficial:…" label`,
      );
    }
  }
  return fail(
    `edition "${a.slice(0, 40)}" is not a date (YYYY-MM-DD), "latest", the code of a set an edition was published with (like AFR) or an "unofficial:…" label`,
  );
}
