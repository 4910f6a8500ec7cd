-- Core storage: editions, the files they came from, content-addressed texts,
-- rule and glossary versions, and which versions each edition holds.
-- Files in schema/ are applied in name order; every statement is idempotent.

CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- One edition per family and effective date. Unofficial editions (fragments
-- that match no official edition) carry a label to keep them apart. Families: the Comprehensive
-- Rules, the 1999 Rulings Summaries, the Magic Tournament Rules and the Infraction Procedure Guide.
CREATE TABLE IF NOT EXISTS editions (
  id             INTEGER PRIMARY KEY,
  family         TEXT    NOT NULL CHECK (family IN ('cr', 'rulings', 'mtr', 'ipg', 'jar')),
  effective_date TEXT    NOT NULL CHECK (effective_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  official       INTEGER NOT NULL DEFAULT 1,
  label          TEXT    NOT NULL DEFAULT '',
  set_code       TEXT,
  set_name       TEXT,
  title          TEXT,
  introduction   TEXT,
  credits        TEXT,
  -- the source file whose text is stored for this edition
  primary_file_id INTEGER,
  warnings       TEXT    NOT NULL DEFAULT '[]',
  UNIQUE (family, effective_date, label)
);

-- Every input file or URL ingested, by content hash. Several files can be the
-- same edition (both archives, other encodings); one of them is primary.
CREATE TABLE IF NOT EXISTS source_files (
  id            INTEGER PRIMARY KEY,
  sha256        TEXT    NOT NULL UNIQUE,
  path          TEXT    NOT NULL,
  size          INTEGER NOT NULL,
  encoding      TEXT    NOT NULL,
  line_endings  TEXT    NOT NULL,
  format        TEXT    NOT NULL,
  label_date    TEXT,
  edition_id    INTEGER REFERENCES editions (id),
  role          TEXT    NOT NULL CHECK (role IN ('primary', 'duplicate', 'fragment')),
  -- rules (and glossary entries) whose normalized text differs from the primary file's
  differing     INTEGER NOT NULL DEFAULT 0,
  report        TEXT    NOT NULL DEFAULT '{}',
  ingested_at   TEXT    NOT NULL
);

-- Content-addressed texts: rule texts, examples, glossary definitions.
-- h is a 64-bit hash of body; norm_h a 64-bit hash of its normalized form.
CREATE TABLE IF NOT EXISTS texts (
  id     INTEGER PRIMARY KEY,
  h      INTEGER NOT NULL UNIQUE,
  norm_h INTEGER NOT NULL,
  body   TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS texts_norm_h ON texts (norm_h);

-- A rule as it reads in one or more editions: number, text and examples.
CREATE TABLE IF NOT EXISTS rule_versions (
  id        INTEGER PRIMARY KEY,
  number    TEXT    NOT NULL,
  kind      TEXT    NOT NULL,
  parent    TEXT,
  text_id   INTEGER NOT NULL REFERENCES texts (id),
  -- JSON array of example text ids, in published order
  examples  TEXT    NOT NULL DEFAULT '[]',
  -- JSON array of citations (Rulings Summaries), or NULL
  citations TEXT
  -- Distinct by (number, kind, parent, text_id, examples, citations): the writer
  -- deduplicates in memory, which spares ingest a six-column unique index.
);

-- Which rule versions an edition holds, in document order. lineage_id ties a
-- rule to its predecessors and successors across renumbering.
CREATE TABLE IF NOT EXISTS edition_rules (
  edition_id INTEGER NOT NULL REFERENCES editions (id),
  ord        INTEGER NOT NULL,
  version_id INTEGER NOT NULL REFERENCES rule_versions (id),
  lineage_id INTEGER,
  PRIMARY KEY (edition_id, ord)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edition_rules_version ON edition_rules (version_id);
-- A rule's places across editions by lineage (history), without reading every edition's rows.
CREATE INDEX IF NOT EXISTS edition_rules_lineage ON edition_rules (lineage_id);
CREATE INDEX IF NOT EXISTS rule_versions_number ON rule_versions (number);
CREATE INDEX IF NOT EXISTS rule_versions_text ON rule_versions (text_id);

CREATE TABLE IF NOT EXISTS edition_parts (
  edition_id INTEGER NOT NULL REFERENCES editions (id),
  ord        INTEGER NOT NULL,
  number     TEXT    NOT NULL,
  title      TEXT    NOT NULL,
  PRIMARY KEY (edition_id, ord)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS glossary_versions (
  id      INTEGER PRIMARY KEY,
  term    TEXT    NOT NULL,
  text_id INTEGER NOT NULL REFERENCES texts (id),
  UNIQUE (term, text_id)
);

CREATE TABLE IF NOT EXISTS edition_glossary (
  edition_id INTEGER NOT NULL REFERENCES editions (id),
  ord        INTEGER NOT NULL,
  version_id INTEGER NOT NULL REFERENCES glossary_versions (id),
  PRIMARY KEY (edition_id, ord)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edition_glossary_version ON edition_glossary (version_id);

CREATE TABLE IF NOT EXISTS ability_words (
  edition_id INTEGER NOT NULL REFERENCES editions (id),
  ord        INTEGER NOT NULL,
  word       TEXT    NOT NULL,
  PRIMARY KEY (edition_id, ord)
) WITHOUT ROWID;

-- Rulings Summaries index: topic -> section numbers.
CREATE TABLE IF NOT EXISTS edition_index (
  edition_id INTEGER NOT NULL REFERENCES editions (id),
  ord        INTEGER NOT NULL,
  topic      TEXT    NOT NULL,
  targets    TEXT    NOT NULL,
  PRIMARY KEY (edition_id, ord)
) WITHOUT ROWID;

-- Rulings Summaries "Note - …" paragraphs, in published order: each belongs to a section of the
-- edition (section = its number, e.g. "A.1"); text_id is the note as published, without "Note - ";
-- citations a JSON array like rule_versions.citations, or NULL.
CREATE TABLE IF NOT EXISTS edition_notes (
  edition_id INTEGER NOT NULL REFERENCES editions (id),
  ord        INTEGER NOT NULL,
  section    TEXT    NOT NULL,
  text_id    INTEGER NOT NULL REFERENCES texts (id),
  citations  TEXT,
  PRIMARY KEY (edition_id, ord)
) WITHOUT ROWID;

-- Tournament documents (MTR, IPG): a unit's named parts (an IPG infraction's definition, philosophy,
-- additional remedy, upgrade, penalty, procedure), a JSON array of {name, text} in published order.
-- Each part's text is also in the unit's text (its title and penalty are its first line), so a
-- version's text decides its parts.
CREATE TABLE IF NOT EXISTS unit_parts (
  version_id INTEGER PRIMARY KEY REFERENCES rule_versions (id),
  parts      TEXT    NOT NULL
);

-- Written by crkb before search moved to an in-memory index per edition (schema/search): gone on
-- the next ingest.
DROP TABLE IF EXISTS texts_fts;
