-- The texts (rule texts, examples, glossary definitions) of one edition, in an in-memory database
-- built on the edition's first search (src/db/TextIndex.ts); rowid = text id.
CREATE VIRTUAL TABLE texts_fts USING fts5 (
  body,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
