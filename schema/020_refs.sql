-- Cross-references found in each distinct text (rule texts, examples, glossary
-- definitions). They are resolved per edition at query time: the same text
-- can point at different rules in different editions.
CREATE TABLE IF NOT EXISTS text_refs (
  text_id INTEGER NOT NULL REFERENCES texts (id),
  ord     INTEGER NOT NULL,
  target  TEXT    NOT NULL,  -- "706.10", section "614", part "9"
  kind    TEXT    NOT NULL CHECK (kind IN ('rule', 'section', 'part')),
  start   INTEGER NOT NULL,  -- UTF-16 offsets of the mention in the text
  "end"   INTEGER NOT NULL,
  PRIMARY KEY (text_id, ord)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS text_refs_target ON text_refs (target);
