import type { EditionInfo, Reader } from '../db/Reader.js';
import { apiError } from './errors.js';

/** How an edition argument was resolved, for caching: exact dates give immutable answers. */
export interface ResolvedEdition {
  edition: EditionInfo;
  exact: boolean;
}

/** Resolves an `edition` argument or throws BAD_USER_INPUT naming the problem. */
export function resolveEditionArg(reader: Reader, arg: string | null | undefined): ResolvedEdition {
  const r = reader.resolveEdition(arg);
  if (!r) throw apiError('BAD_USER_INPUT', reader.editionProblem(arg) ?? 'no such edition', { argument: 'edition' });
  return r;
}

const NUMBER_RE = /^\d{1,3}(?:\.\d{1,3}[a-z]{0,2})?$/;

/** Reads a rule number argument ("702.19b", "702.19.", " 100 ") or throws BAD_USER_INPUT. */
export function ruleNumberArg(n: string): string {
  const t = n.trim().replace(/\.$/, '').toLowerCase();
  if (!NUMBER_RE.test(t)) {
    throw apiError('BAD_USER_INPUT', `"${n.slice(0, 40)}" is not a rule number (like 702.19b)`, { argument: 'number' });
  }
  return t;
}

/** Caps a connection's `first` argument at `max`; negative values are input mistakes. */
export function firstArg(first: number | null | undefined, dflt: number, max = 500): number {
  if (first === null || first === undefined) return Math.min(dflt, max);
  if (!Number.isInteger(first) || first < 0) throw apiError('BAD_USER_INPUT', '`first` must be a non-negative integer');
  return Math.min(first, max);
}

/** Encodes an opaque cursor. */
export function encodeCursor(kind: string, value: number): string {
  return Buffer.from(`${kind}:${value}`).toString('base64url');
}

/** Decodes an opaque cursor made by encodeCursor, or throws BAD_USER_INPUT. */
export function decodeCursor(kind: string, cursor: string | null | undefined): number | null {
  if (cursor === null || cursor === undefined || cursor === '') return null;
  const s = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^([a-z]+):(-?\d{1,12})$/.exec(s);
  if (!m || m[1] !== kind) throw apiError('BAD_USER_INPUT', `invalid cursor "${cursor.slice(0, 40)}"`, { argument: 'after' });
  return Number(m[2]);
}
