/**
 * The document families crkb stores, in one place: every list of families (the faces' arguments and enums,
 * the database's CHECK, the lineage steps) is derived from these.
 */

/** The tournament documents stored as editions of numbered units with titles: the MTR, the IPG and the JAR (its units numbered by crkb). */
export const POLICY_FAMILIES = ['mtr', 'ipg', 'jar'] as const;

/** The documents a judge asks for by name on every face (citations, MCP tools): the Comprehensive Rules and the tournament documents. */
export const DOCUMENT_FAMILIES = ['cr', ...POLICY_FAMILIES] as const;

/** The documents a citation names by number ("704.5", "MTR 2.3", "IPG 2.1"): the JAR publishes no numbers, so nothing cites it. */
export const CITED_FAMILIES = ['cr', 'mtr', 'ipg'] as const satisfies ReadonlyArray<(typeof DOCUMENT_FAMILIES)[number]>;

/** Every family whose editions are stored, each with its own chain of editions (lineage, diffs, history). */
export const FAMILIES = ['cr', 'rulings', ...POLICY_FAMILIES] as const;

/** Which family of documents an edition belongs to. */
export type Family = (typeof FAMILIES)[number];

/** A tournament-document family: the Magic Tournament Rules, the Infraction Procedure Guide or Judging at Regular REL. */
export type PolicyFamilyName = (typeof POLICY_FAMILIES)[number];

/** The SQL predicate the tables' family CHECK holds: "family IN ('cr', 'rulings', …)". */
export function familyCheckSql(): string {
  return `family IN (${FAMILIES.map((f) => `'${f}'`).join(', ')})`;
}
