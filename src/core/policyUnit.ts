import { FAMILIES, POLICY_FAMILIES, type Family, type PolicyFamilyName } from './families.js';

/** Whether a family is a tournament document (MTR, IPG, JAR). */
export function isPolicyFamily(family: string): family is PolicyFamilyName {
  return (POLICY_FAMILIES as readonly string[]).includes(family);
}

/**
 * What a unit number of `family` is, when it is not the document's own: the JAR numbers nothing, so crkb numbers
 * its units by position (the introduction 0, each heading 1, 2, …, each issue under a heading 1.1, 1.2, …); null
 * for the documents that publish their numbers.
 */
export function numberingNote(family: Family): string | null {
  return family === 'jar'
    ? 'The JAR numbers nothing: these numbers are crkb’s, its units’ positions in the document (the introduction 0, each heading 1, 2, …, each issue under a heading 1.1, 1.2, …), not published ones.'
    : null;
}

/** The family a word names ("mtr", "IPG", "cr"), or null. */
export function familyOf(word: string): Family | null {
  const w = word.trim().toLowerCase();
  return (FAMILIES as readonly string[]).includes(w) ? (w as Family) : null;
}

/** A family's name for people: "MTR", "IPG", "JAR", "CR", "Rulings". */
export function familyLabel(family: Family): string {
  return family === 'rulings' ? 'Rulings Summaries' : family.toUpperCase();
}

/** A family's full name: "Comprehensive Rules", "Magic Tournament Rules", "Infraction Procedure Guide", "Judging at Regular Rules Enforcement Level". */
export function documentName(family: Family): string {
  return DOCUMENT_NAMES[family];
}
const DOCUMENT_NAMES: Record<Family, string> = {
  cr: 'Comprehensive Rules',
  rulings: 'Rulings Summaries',
  mtr: 'Magic Tournament Rules',
  ipg: 'Infraction Procedure Guide',
  jar: 'Judging at Regular Rules Enforcement Level',
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

// a document's name or "section" before a typed number ("IPG 2.1", "jar 1.2", "section 4.2")
const FAMILY_PREFIX = new RegExp(String.raw`^(?:${POLICY_FAMILIES.join('|')}|section|§)\s*`, 'i');

/** A typed section number of a tournament document ("2.1", "IPG 2.1.", "101", "appendix b"), normalized, or null. */
export function policyNumberArg(text: string): string | null {
  const t = text.trim().replace(FAMILY_PREFIX, '').replace(/\.$/, '');
  const appendix = /^appendix\s+([a-z])$/i.exec(t);
  if (appendix) return `Appendix ${appendix[1]!.toUpperCase()}`;
  return /^\d{1,3}(?:\.\d{1,2})?$/.test(t) ? t : null;
}
