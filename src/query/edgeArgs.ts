import type { Family } from '../core/records.js';
import { RULINGS_NUMBER_RE, SCOPE_RE, normalizeNumber } from '../core/ruleNumber.js';
import { parseQuery } from './parseQuery.js';
import { FAMILIES } from '../core/families.js';
import { familyOf, isPolicyFamily, policyNumberArg } from '../core/policyUnit.js';
import { QueryError } from './QueryError.js';

// The arguments every edge reads from its users, read once here: each mistake is a BAD_INPUT QueryError naming the argument.

/** Output formats of the edges' answers. */
export type Format = 'json' | 'text' | 'markdown';

const bad = (argument: string, message: string): QueryError => new QueryError('BAD_INPUT', message, { argument });

/** A document family ("cr", "rulings", "mtr", "ipg", any case), `fallback` when not given. */
export function familyArg(text: string | null | undefined, argument = 'family', fallback: Family = 'cr'): Family {
  const t = text?.trim();
  if (!t) return fallback;
  const f = familyOf(t);
  if (f === null) throw bad(argument, `${argument} must be ${FAMILIES.join(', ')}, not "${t.slice(0, 20)}"`);
  return f;
}

/** A user's rule number ("702.19b", "CR 702.19B.", "rule 702.19"; "E.13.Ruling.3" in the Rulings Summaries), normalized. */
export function ruleNumberArg(text: string, argument = 'number', family: Family = 'cr'): string {
  if (isPolicyFamily(family)) {
    const n = policyNumberArg(text);
    if (n !== null) return n;
    throw bad(argument, `"${text.slice(0, 40)}" is not a section number of the ${family.toUpperCase()} (like 2.1, 101 or Appendix B)`);
  }
  if (family === 'rulings') {
    if (RULINGS_NUMBER_RE.test(text.trim())) return text.trim();
    throw bad(argument, `"${text.slice(0, 40)}" is not a Rulings Summaries number (like E.13.Ruling.3)`);
  }
  const n = normalizeNumber(text);
  if (n === null) throw bad(argument, `"${text.slice(0, 40)}" is not a rule number (like 702.19b)`);
  return n;
}

/** A rule number or a range of rules ("601.2a-h"), as a lookup reads it; the text itself. */
export function ruleOrRangeArg(text: string, argument = 'number'): string {
  const kind = parseQuery(text).kind;
  if (kind !== 'number' && kind !== 'range') throw bad(argument, `"${text.slice(0, 40)}" is not a rule number (like 702.19b)`);
  return text;
}

/** A scope: a part ("7"), a section ("702") or a rule ("702.19") and what is below it; null when not given. */
export function scopeArg(text: string | null | undefined, argument = 'section'): string | null {
  const t = text?.trim();
  if (!t) return null;
  const n = normalizeNumber(t);
  if (n === null || !SCOPE_RE.test(n)) throw bad(argument, `"${t.slice(0, 40)}" is not a part (7), section (702) or rule (702.19)`);
  return n;
}

/** An output format among `allowed` ("md" is markdown), `fallback` when not given. */
export function formatArg<F extends Format>(text: string | undefined, allowed: readonly F[], fallback: F, argument = 'format'): F {
  if (text === undefined) return fallback;
  const f = text === 'md' ? 'markdown' : text;
  const found = allowed.find((a) => a === f);
  if (found !== undefined) return found;
  const list = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)!}` : allowed.join('');
  throw bad(argument, `${argument} must be ${list}, not "${text.slice(0, 20)}"`);
}

/** A whole number from `min` to `max` (a limit, an offset), `fallback` when not given. */
export function countArg(text: string | undefined, o: { argument: string; min: number; max: number; fallback: number }): number {
  if (text === undefined) return o.fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < o.min || n > o.max)
    throw bad(o.argument, `${o.argument} must be a whole number from ${o.min} to ${o.max}, not "${text.slice(0, 20)}"`);
  return n;
}

/** A required text (not blank), as given. `what` names the kind of argument: a parameter, an option. */
export function requiredArg(value: string | undefined, argument: string, what = 'parameter'): string {
  if (value === undefined || value.trim() === '') throw bad(argument, `the "${argument}" ${what} is required`);
  return value;
}

/** A query-string parameter given at most once (a name repeated reads as a list). */
export function oneParam(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw bad(name, `give the "${name}" parameter once`);
  return v;
}
