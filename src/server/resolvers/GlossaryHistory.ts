/** A glossary history as the query layer returns it (the fields the resolvers read). */
export interface GlossaryHistoryParent {
  lineage: number;
}

/** Resolvers of GlossaryHistory: its global id is its term lineage's. */
export const GlossaryHistory = {
  id: (h: GlossaryHistoryParent) => `GlossaryLineage:${h.lineage}`,
};
