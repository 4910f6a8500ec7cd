-- The texts (rule texts, examples, glossary definitions) of one edition's search group, in an
-- in-memory database built on the edition's first search (src/db/TextIndex.ts): the edition's own
-- texts at rowids 0 to n - 1 in text id order, the group's others after them. Only the edition's
-- texts are kept in `texts` (what snippets and highlights read); the group's others are in the index
-- alone, for bm25's statistics.
CREATE TABLE texts (
  id   INTEGER PRIMARY KEY,
  body TEXT NOT NULL
);
CREATE VIRTUAL TABLE texts_fts USING fts5 (
  body,
  content = 'texts',
  content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
