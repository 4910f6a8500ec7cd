-- The published bytes of each edition's stored text file (served by /v1/files/{edition}.txt),
-- one row per distinct file (by sha256, as in source_files), gzip-compressed: the text files of
-- every edition are four times the rest of the database. Only a text file that is an edition's
-- primary file is kept (a Word document's text is not a published text file).
CREATE TABLE IF NOT EXISTS source_bytes (
  sha256 TEXT    PRIMARY KEY,
  size   INTEGER NOT NULL,
  gzip   BLOB    NOT NULL
);
