import { apiError } from './errors.js';

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
