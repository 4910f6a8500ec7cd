import type { Family } from './records.js';

/** The families of the tournament documents stored as editions (numbered units with titles). */
export const POLICY_FAMILIES = ['mtr', 'ipg'] as const;

/** A tournament-document family that is stored: the Magic Tournament Rules or the Infraction Procedure Guide. */
export type PolicyFamilyName = (typeof POLICY_FAMILIES)[number];

/** Every family whose editions are stored, each with its own chain of editions (lineage, diffs, history). */
export const STORED_FAMILIES = ['cr', 'rulings', ...POLICY_FAMILIES] as const;

/** Whether a family is a tournament document (MTR, IPG). */
export function isPolicyFamily(family: string): family is PolicyFamilyName {
  return (POLICY_FAMILIES as readonly string[]).includes(family);
}

/** The family a word names ("mtr", "IPG", "cr"), or null. */
export function familyOf(word: string): Family | null {
  const w = word.trim().toLowerCase();
  return (STORED_FAMILIES as readonly string[]).includes(w) ? (w as Family) : null;
}

/** A family's name for people: "MTR", "IPG", "CR", "Rulings". */
export function familyLabel(family: Family): string {
  return family === 'rulings' ? 'Rulings Summaries' : family.toUpperCase();
}

/** A family's full name: "Comprehensive Rules", "Magic Tournament Rules", "Infraction Procedure Guide". */
export function documentName(family: Family): string {
  return DOCUMENT_NAMES[family];
}
const DOCUMENT_NAMES: Record<Family, string> = {
  cr: 'Comprehensive Rules',
  rulings: 'Rulings Summaries',
  mtr: 'Magic Tournament Rules',
  ipg: 'Infraction Procedure Guide',
  jar: 'Judging at Regular',
};

/**
 * The stored text of a tournament-document unit: its heading line (the title, then the penalty after a
 * tab, as the IPG's heading carries it at the right margin), then its body. Titles and penalties are
 * then part of the text every diff, history and search compares, as a CR section's title is.
 */
export function unitText(title: string, penalty: string | null | undefined, body: string): string {
  const heading = penalty ? `${title}\t${penalty}` : title;
  return body === '' ? heading : `${heading}\n${body}`;
}

/** A stored unit text (see unitText) split back into its title, penalty and body. */
export function splitUnitText(text: string): { title: string; penalty: string | null; body: string } {
  const nl = text.indexOf('\n');
  const heading = nl === -1 ? text : text.slice(0, nl);
  const body = nl === -1 ? '' : text.slice(nl + 1);
  const tab = heading.indexOf('\t');
  return tab === -1 ? { title: heading, penalty: null, body } : { title: heading.slice(0, tab), penalty: heading.slice(tab + 1), body };
}

/** A typed section number of a tournament document ("2.1", "IPG 2.1.", "101", "appendix b"), normalized, or null. */
export function policyNumberArg(text: string): string | null {
  const t = text
    .trim()
    .replace(/^(?:mtr|ipg|section|§)\s*/i, '')
    .replace(/\.$/, '');
  const appendix = /^appendix\s+([a-z])$/i.exec(t);
  if (appendix) return `Appendix ${appendix[1]!.toUpperCase()}`;
  return /^\d{1,3}(?:\.\d{1,2})?$/.test(t) ? t : null;
}
