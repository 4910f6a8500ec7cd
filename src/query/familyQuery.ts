import type { Family } from '../core/records.js';
import { POLICY_FAMILIES } from '../core/families.js';
import { isPolicyFamily } from '../core/policyUnit.js';

// "mtr 4.2", "IPG: missed trigger", "!ipg 2.1", "/mtr appendix b", "jar missed trigger": a tournament document named before the query
const FAMILY_HEAD_RE = new RegExp(String.raw`^\s*[!/?]?(${POLICY_FAMILIES.join('|')})\b\s*[:,-]?\s*(.*)$`, 'is');

/**
 * The tournament document a query names at its head ("mtr 4.2", "ipg missed trigger", "jar shuffling") and the
 * query without it; `family` null when it names none (a CR query is read as it always was). Pure.
 */
export function familyInQuery(q: string): { family: Family | null; text: string } {
  const m = FAMILY_HEAD_RE.exec(q);
  if (!m || !isPolicyFamily(m[1]!.toLowerCase())) return { family: null, text: q };
  return { family: m[1]!.toLowerCase() as Family, text: m[2]!.trim() };
}
