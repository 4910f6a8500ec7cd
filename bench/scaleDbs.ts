/**
 * Synthetic databases of N editions for bench/scale, made from a real one with SQL (no parsing): fewer
 * editions than the real database keeps its newest CR editions (and what they use); more copies the
 * CR chain forward, 28 years a copy (dates keep their weekday and leap day), as if new documents had
 * been published: each copy's texts, rule and glossary versions are new rows, each text marked with
 * " ·N" at its end (the store is content-addressed: the archive's distinct texts grow with it, as new
 * documents would make them, and no word is added), rules keep their lineages (a rule's history
 * runs through every copy), and each copy's first edition follows the previous copy's last.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';

/** Copies `source` to `target` and makes it hold `editions` editions. */
export function makeScaleDb(source: string, target: string, editions: number): void {
  copyFileSync(source, target);
  const db = new Database(target);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    const count = db.prepare('SELECT count(*) FROM editions').pluck().get() as number;
    db.transaction(() => (editions < count ? trim(db, editions) : grow(db, editions - count)))();
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

/** Keeps the newest `keep` CR editions and what they use. */
function trim(db: Database.Database, keep: number): void {
  db.prepare(
    `CREATE TEMP TABLE gone AS SELECT id FROM editions WHERE id NOT IN
       (SELECT id FROM editions WHERE family = 'cr' ORDER BY effective_date DESC LIMIT ?)`,
  ).run(keep);
  for (const t of ['edition_rules', 'edition_parts', 'edition_glossary', 'ability_words', 'edition_index', 'edition_notes', 'lineage_pairs', 'edition_lineage'])
    db.exec(`DELETE FROM ${t} WHERE edition_id IN (SELECT id FROM gone)`);
  db.exec(`DELETE FROM lineage_links WHERE edition_id IN (SELECT id FROM gone) OR prev_edition_id IN (SELECT id FROM gone)`);
  db.exec(`UPDATE edition_lineage SET prev_edition_id = NULL WHERE prev_edition_id IN (SELECT id FROM gone)`);
  db.exec(`DELETE FROM fragment_rules WHERE source_id IN (SELECT id FROM fragment_sources WHERE edition_id IN (SELECT id FROM gone))`);
  db.exec(`DELETE FROM fragment_sources WHERE edition_id IN (SELECT id FROM gone)`);
  db.exec(`DELETE FROM source_files WHERE edition_id IN (SELECT id FROM gone)`);
  db.exec(`DELETE FROM editions WHERE id IN (SELECT id FROM gone)`);
  db.exec(`DELETE FROM rule_versions WHERE id NOT IN (SELECT version_id FROM edition_rules)`);
  db.exec(`DELETE FROM glossary_versions WHERE id NOT IN (SELECT version_id FROM edition_glossary)`);
  db.exec(`CREATE TEMP TABLE used (id INTEGER PRIMARY KEY)`);
  db.exec(`INSERT OR IGNORE INTO used SELECT text_id FROM rule_versions`);
  db.exec(`INSERT OR IGNORE INTO used SELECT value FROM rule_versions, json_each(rule_versions.examples)`);
  db.exec(`INSERT OR IGNORE INTO used SELECT text_id FROM glossary_versions`);
  db.exec(`INSERT OR IGNORE INTO used SELECT text_id FROM edition_notes`);
  db.exec(`INSERT OR IGNORE INTO used SELECT text_id FROM fragment_rules`);
  db.exec(`DELETE FROM texts WHERE id NOT IN (SELECT id FROM used)`);
  db.exec(`DELETE FROM text_refs WHERE text_id NOT IN (SELECT id FROM used)`);
}

/** Adds `extra` editions: copies of the CR chain, oldest first, each copy 28 years after the last. */
function grow(db: Database.Database, extra: number): void {
  const max = (sql: string): number => (db.prepare(sql).pluck().get() as number | null) ?? 0;
  const chain = db.prepare(`SELECT id FROM editions WHERE family = 'cr' AND official = 1 ORDER BY effective_date`).pluck().all() as number[];
  const dE = max('SELECT max(id) FROM editions');
  const dT = max('SELECT max(id) FROM texts');
  const dV = max('SELECT max(id) FROM rule_versions');
  const dG = max('SELECT max(id) FROM glossary_versions');
  const dH = 2 ** 53;
  let last = chain[chain.length - 1]!;
  for (let g = 1; extra > 0; g++) {
    const take = chain.slice(0, Math.min(extra, chain.length));
    extra -= take.length;
    db.exec('DROP TABLE IF EXISTS temp.src');
    db.exec(`CREATE TEMP TABLE src (id INTEGER PRIMARY KEY)`);
    const ins = db.prepare('INSERT INTO src VALUES (?)');
    for (const id of take) ins.run(id);
    const p = { e: g * dE, t: g * dT, v: g * dV, gl: g * dG, h: g * dH, years: `+${28 * g} years`, mark: ` ·${g}` };
    // texts of the copied editions (rule texts, examples, definitions), as new rows
    db.exec(`DROP TABLE IF EXISTS temp.used; CREATE TEMP TABLE used (id INTEGER PRIMARY KEY)`);
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS vers (id INTEGER PRIMARY KEY); DELETE FROM vers`);
    db.exec(`INSERT OR IGNORE INTO vers SELECT version_id FROM edition_rules WHERE edition_id IN (SELECT id FROM src)`);
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS glos (id INTEGER PRIMARY KEY); DELETE FROM glos`);
    db.exec(`INSERT OR IGNORE INTO glos SELECT version_id FROM edition_glossary WHERE edition_id IN (SELECT id FROM src)`);
    db.exec(`INSERT OR IGNORE INTO used SELECT text_id FROM rule_versions WHERE id IN (SELECT id FROM vers)`);
    db.exec(`INSERT OR IGNORE INTO used SELECT value FROM rule_versions, json_each(rule_versions.examples) WHERE rule_versions.id IN (SELECT id FROM vers)`);
    db.exec(`INSERT OR IGNORE INTO used SELECT text_id FROM glossary_versions WHERE id IN (SELECT id FROM glos)`);
    db.prepare(`INSERT INTO texts (id, h, norm_h, body) SELECT id + @t, h + @h, norm_h + @h, body || @mark FROM texts WHERE id IN (SELECT id FROM used)`).run(
      p,
    );
    db.prepare(`INSERT INTO text_refs SELECT text_id + @t, ord, target, kind, start, "end" FROM text_refs WHERE text_id IN (SELECT id FROM used)`).run(p);
    db.prepare(
      `INSERT INTO rule_versions (id, number, kind, parent, text_id, examples, citations)
       SELECT id + @v, number, kind, parent, text_id + @t,
              CASE examples WHEN '[]' THEN '[]' ELSE (SELECT json_group_array(value + @t) FROM json_each(examples)) END, citations
       FROM rule_versions WHERE id IN (SELECT id FROM vers)`,
    ).run(p);
    db.prepare(
      `INSERT INTO glossary_versions (id, term, text_id) SELECT id + @gl, term, text_id + @t FROM glossary_versions WHERE id IN (SELECT id FROM glos)`,
    ).run(p);
    db.prepare(
      `INSERT INTO editions (id, family, effective_date, official, label, set_code, set_name, title, introduction, credits, primary_file_id, warnings)
       SELECT id + @e, family, date(effective_date, @years), official, label, NULL, NULL, title, introduction, credits, NULL, warnings
       FROM editions WHERE id IN (SELECT id FROM src)`,
    ).run(p);
    db.prepare(
      `INSERT INTO edition_rules SELECT edition_id + @e, ord, version_id + @v, lineage_id FROM edition_rules WHERE edition_id IN (SELECT id FROM src)`,
    ).run(p);
    db.prepare(`INSERT INTO edition_glossary SELECT edition_id + @e, ord, version_id + @gl FROM edition_glossary WHERE edition_id IN (SELECT id FROM src)`).run(
      p,
    );
    for (const t of ['edition_parts', 'ability_words', 'edition_index', 'lineage_pairs'])
      db.prepare(`INSERT INTO ${t} SELECT edition_id + @e, * FROM ${t} WHERE edition_id IN (SELECT id FROM src)`.replace('*', starAfterFirst(db, t))).run(p);
    db.prepare(
      `INSERT INTO lineage_links SELECT edition_id + @e, kind, ord, prev_edition_id + @e, prev_ord FROM lineage_links
       WHERE edition_id IN (SELECT id FROM src) AND prev_edition_id IN (SELECT id FROM src)`,
    ).run(p);
    db.prepare(
      `INSERT INTO edition_lineage SELECT edition_id + @e, CASE WHEN edition_id = @first THEN @last ELSE prev_edition_id + @e END
       FROM edition_lineage WHERE edition_id IN (SELECT id FROM src)`,
    ).run({ ...p, first: take[0]!, last });
    last = take[take.length - 1]! + p.e;
  }
}

/** A table's columns after the first, as a select list. */
function starAfterFirst(db: Database.Database, table: string): string {
  const cols = (db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).pluck().all(table) as string[]).slice(1);
  return cols.map((c) => `"${c}"`).join(', ');
}
