-- The texts (rule texts, examples, glossary definitions) of a group of neighbouring editions, in an
-- in-memory database built on the group's first search (src/db/TextIndex.ts).
CREATE VIRTUAL TABLE texts_fts USING fts5 (
  body,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
