import type { EditionInfo } from '../core/records.js';

/** An edition the sources manifest (data/sources.json) knows, stored or not. */
export interface KnownEdition {
  effectiveDate: string;
  setCode: string | null;
  setName: string | null;
}

/** What the database lacks of what the manifest knows: the newest known edition in force by `today`, when newer than the newest stored. */
export interface StaleData {
  newestKnown: KnownEdition;
  newestStored: EditionInfo;
  /** How many known editions in force by `today` are newer than the newest stored. */
  missing: number;
  /** The known edition in force on the date asked for (`asked`), when it is not stored; null when none was asked or it is stored. */
  inForce: KnownEdition | null;
}

/**
 * Whether the database is behind the manifest: the newest official CR edition stored against the newest known one in
 * force by `today` (editions announced for later days do not count); `asked` is a date a page asked for
 * (/cr/2026-01-01), answered by the newest stored edition though a later known one was in force. Null when up to date.
 */
export function staleData(kb: { editions(): EditionInfo[] }, known: readonly KnownEdition[], today: string, asked?: string): StaleData | null {
  const newestStored = kb
    .editions()
    .filter((e) => e.family === 'cr' && e.official)
    .at(-1);
  if (!newestStored) return null;
  const newer = known
    .filter((k) => k.effectiveDate > newestStored.effectiveDate && k.effectiveDate <= today)
    .sort((a, b) => (a.effectiveDate < b.effectiveDate ? -1 : 1));
  const newestKnown = newer.at(-1);
  if (!newestKnown) return null;
  const day = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : null;
  const inForce = day ? (newer.filter((k) => k.effectiveDate <= day).at(-1) ?? null) : null;
  return { newestKnown, newestStored, missing: newer.length, inForce };
}

/** What an answer says of a newer edition the database lacks (/v1 `newerKnown`, GraphQL Edition.newerKnown, MCP, chat). */
export interface NewerKnown {
  effectiveDate: string;
  setCode: string | null;
  setName: string | null;
  /** How many known editions in force today are newer than the newest stored. */
  missing: number;
  /** What gets it. */
  how: 'crkb update';
}

/** The answers' form of staleData: the newest known edition not stored, or null when up to date. */
export function newerKnownOf(stale: StaleData | null): NewerKnown | null {
  if (!stale) return null;
  const { effectiveDate, setCode, setName } = stale.newestKnown;
  return { effectiveDate, setCode, setName, missing: stale.missing, how: 'crkb update' };
}
