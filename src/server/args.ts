import { normalizeNumber } from '../core/ruleNumber.js';
import { apiError } from './errors.js';

/** Reads a rule number argument ("702.19b", "702.19.", " 100 ") or throws BAD_USER_INPUT. */
export function ruleNumberArg(n: string, argument = 'number'): string {
  const t = normalizeNumber(n);
  if (t === null) throw apiError('BAD_USER_INPUT', `"${n.slice(0, 40)}" is not a rule number (like 702.19b)`, { argument });
  return t;
}

/** Encodes an opaque cursor. */
export function encodeCursor(kind: string, value: number): string {
  return Buffer.from(`${kind}:${value}`).toString('base64url');
}

/** Decodes an opaque cursor made by encodeCursor (a non-negative position), or throws BAD_USER_INPUT. */
export function decodeCursor(kind: string, cursor: string | null | undefined): number | null {
  if (cursor === null || cursor === undefined || cursor === '') return null;
  const s = Buffer.from(cursor.slice(0, 64), 'base64url').toString('utf8');
  const m = /^([a-z]+):(\d{1,9})$/.exec(s);
  if (!m || m[1] !== kind) throw apiError('BAD_USER_INPUT', `invalid cursor "${cursor.slice(0, 40)}"`, { argument: 'after' });
  return Number(m[2]);
}
