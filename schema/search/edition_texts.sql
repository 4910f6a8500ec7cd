-- One edition's texts (rule texts, examples, glossary definitions), in an in-memory database built
-- on an edition's first search (src/db/EditionSearch.ts): bm25 statistics are the edition's own,
-- and a query reads only that edition's posting lists.
CREATE VIRTUAL TABLE texts_fts USING fts5 (
  body,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
