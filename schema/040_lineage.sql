-- Rule lineage across consecutive official editions of a family.
-- edition_rules.lineage_id (010_core) holds the ids; this records what they were
-- computed against, so a later ingest re-aligns only pairs touching changed editions.
CREATE TABLE IF NOT EXISTS edition_lineage (
  edition_id      INTEGER PRIMARY KEY REFERENCES editions (id),
  -- the predecessor in the chain the ids were computed against (NULL: first edition)
  prev_edition_id INTEGER REFERENCES editions (id)
);

-- Splits and merges found between an edition and its predecessor, by document position:
-- 'split': the rule at (edition_id, ord) came out of the predecessor's rule at prev_ord
-- (which continues as another rule); 'merge': the predecessor's rule at prev_ord was
-- folded into the rule at (edition_id, ord).
CREATE TABLE IF NOT EXISTS lineage_links (
  edition_id      INTEGER NOT NULL REFERENCES editions (id),
  kind            TEXT    NOT NULL CHECK (kind IN ('split', 'merge')),
  ord             INTEGER NOT NULL,
  prev_edition_id INTEGER NOT NULL REFERENCES editions (id),
  prev_ord        INTEGER NOT NULL,
  PRIMARY KEY (edition_id, kind, ord, prev_ord)
) WITHOUT ROWID;


-- Why each rule of an edition was paired with its predecessor's rule (align.ts AlignMethod and the
-- score it was chosen with), for `crkb diff --explain`. Rules paired on identical text ('exact')
-- and new rules have no row.
CREATE TABLE IF NOT EXISTS lineage_pairs (
  edition_id INTEGER NOT NULL REFERENCES editions (id),
  ord        INTEGER NOT NULL,
  method     TEXT    NOT NULL,
  score      REAL    NOT NULL,
  PRIMARY KEY (edition_id, ord)
) WITHOUT ROWID;
