-- Fragments, excerpts and scraped pages: which edition each was attached to,
-- how well it matched, and its rules with their status against that edition.
-- Official text is never overwritten: a fragment's texts are interned in
-- `texts` but only unofficial editions (editions.official = 0) hold them.

CREATE TABLE IF NOT EXISTS fragment_sources (
  id          INTEGER PRIMARY KEY,
  file_id     INTEGER NOT NULL UNIQUE REFERENCES source_files (id),
  family      TEXT    NOT NULL CHECK (family IN ('cr', 'rulings', 'mtr', 'ipg', 'jar')),
  -- the edition it is attached to (an official one, or its own unofficial one)
  edition_id  INTEGER REFERENCES editions (id),
  attached_by TEXT    NOT NULL CHECK (attached_by IN ('identified', 'option', 'unofficial')),
  -- the edition its rules were compared with (statuses in fragment_rules)
  reference_edition_id INTEGER REFERENCES editions (id),
  total       INTEGER NOT NULL,
  -- exact + near against the reference edition
  matched     INTEGER NOT NULL,
  exact       INTEGER NOT NULL,
  near        INTEGER NOT NULL,
  -- best contiguous range of official editions it matches (effective dates)
  range_from  TEXT,
  range_to    TEXT,
  summary     TEXT    NOT NULL,
  -- the provenance report (per-edition scores, disagreements with word diffs) as JSON
  report      TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS fragment_sources_edition ON fragment_sources (edition_id);

CREATE TABLE IF NOT EXISTS fragment_rules (
  source_id INTEGER NOT NULL REFERENCES fragment_sources (id),
  ord       INTEGER NOT NULL,
  number    TEXT    NOT NULL,
  text_id   INTEGER NOT NULL REFERENCES texts (id),
  -- JSON array of example text ids, in published order
  examples  TEXT    NOT NULL DEFAULT '[]',
  status    TEXT    NOT NULL CHECK (status IN ('match', 'near', 'differs', 'absent')),
  PRIMARY KEY (source_id, ord)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS fragment_rules_number ON fragment_rules (number);
