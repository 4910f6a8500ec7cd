import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../support/tempDir.js';
import { readFileSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { Catalog } from '../../src/db/Catalog.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';

const corpus = resolve(process.cwd(), '../shared/corpus');
const file = (p: string): string => join(corpus, p);

function tmp(): string {
  return tempDir('crkb-ingest-');
}

function editionSnapshot(dbFile: string, date: string): string {
  const kb = KnowledgeBase.open(dbFile);
  try {
    const e = kb.exportEdition(kb.resolveEdition(date).edition);
    return JSON.stringify([e.rules, e.glossary]);
  } finally {
    kb.close();
  }
}

test('the same edition from both archives is stored once and the merge is reported', async () => {
  const dir = tmp();
  const db = join(dir, 'x.db');
  const inputs = expandInputs([file('mtg-cr/CR-2021-07-12.txt'), file('rulesraker/2021-07-12.txt'), file('rulesraker/2021-06-09.txt')]);
  const r = await runIngest({ inputs, dbFile: db });
  assert.deepEqual(r.rejected, []);
  const dates = r.editions.map((e) => e.effectiveDate).sort();
  // File names are archive labels: the documents say 2021-06-18 and 2021-07-23.
  assert.deepEqual(dates, ['2021-06-18', '2021-07-23']);
  const july = r.editions.find((e) => e.effectiveDate === '2021-07-23')!;
  assert.deepEqual(
    july.files.map((f) => f.path.split('/').slice(-2).join('/')).sort(),
    ['mtg-cr/CR-2021-07-12.txt', 'rulesraker/2021-07-12.txt'],
    'both archive copies are named as merged',
  );
  assert.ok(july.warnings.some((w) => /label 2021-07-12 disagrees with the document's own date 2021-07-23/.test(w)));
  assert.equal(july.unaccountedLines, 0);
  assert.ok(july.counts.rules > 2500, `rules: ${july.counts.rules}`);

  const again = await runIngest({ inputs, dbFile: db });
  assert.equal(again.wrote, false, 're-ingest of unchanged files writes nothing');
  assert.equal(again.skipped.length, 3);
});

test('a file whose label names another edition is filed under its content date, with a warning', async () => {
  const dir = tmp();
  const r = await runIngest({ inputs: expandInputs([file('rulesraker/2006-06-01.txt')]), dbFile: join(dir, 'x.db') });
  assert.equal(r.editions.length, 1);
  assert.equal(r.editions[0]!.effectiveDate, '2004-06-01');
  assert.match(r.editions[0]!.warnings.join('\n'), /label 2006-06-01 disagrees .* 2004-06-01/);
});

test('bad inputs are rejected one by one with a reason, and stored editions are untouched', async () => {
  const dir = tmp();
  const db = join(dir, 'x.db');
  await runIngest({ inputs: expandInputs([file('rulesraker/2020-09-25.txt')]), dbFile: db });
  const before = editionSnapshot(db, '2020-09-25');

  const bad = join(dir, 'bad');
  const good = file('rulesraker/2020-11-20.txt');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(bad);
  writeFileSync(join(bad, 'empty.txt'), '');
  writeFileSync(join(bad, 'image.txt'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]));
  writeFileSync(
    join(bad, 'error.html'),
    '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>',
  );
  const full = readFileSync(file('rulesraker/2020-09-25.txt'), 'utf8');
  const cut = full.indexOf('702.19c');
  writeFileSync(join(bad, 'truncated.txt'), full.slice(0, cut + 40));
  writeFileSync(join(bad, 'ebcdic.txt'), Buffer.from(Array.from({ length: 600 }, (_, i) => [0x81, 0x8d, 0x9d, 0xc1, 0x40][i % 5]!)));
  const r = await runIngest({ inputs: expandInputs([bad, good]), dbFile: db });
  const reasons = new Map(r.rejected.map((x) => [x.source.split('/').pop(), x.reason]));
  assert.match(reasons.get('empty.txt') ?? '', /empty/);
  assert.match(reasons.get('image.txt') ?? '', /PNG/);
  assert.match(reasons.get('error.html') ?? '', /no rules found/);
  assert.match(reasons.get('truncated.txt') ?? '', /truncated/);
  assert.match(reasons.get('ebcdic.txt') ?? '', /encoding/);
  assert.equal(r.rejected.length, 5);
  assert.deepEqual(
    r.editions.map((e) => e.effectiveDate),
    ['2020-11-20'],
  );
  assert.equal(editionSnapshot(db, '2020-09-25'), before);
});

test('a failure while writing leaves the previous database exactly as it was', async () => {
  const dir = tmp();
  const db = join(dir, 'x.db');
  await runIngest({ inputs: expandInputs([file('rulesraker/2020-09-25.txt')]), dbFile: db });
  const bytes = readFileSync(db);
  await assert.rejects(
    runIngest({
      inputs: expandInputs([file('rulesraker/2020-11-20.txt')]),
      dbFile: db,
      afterStore: () => {
        throw new Error('disk on fire');
      },
    }),
    /disk on fire/,
  );
  assert.ok(readFileSync(db).equals(bytes));
  copyFileSync(db, join(dir, 'copy.db'));
  const catalog = new Catalog(openReadOnlyDb(join(dir, 'copy.db')));
  assert.deepEqual(
    catalog.editions().map((e) => e.effectiveDate),
    ['2020-09-25'],
  );
});

/** Which (edition, position) rows share a lineage, independent of the ids' values. */
function lineagePartition(dbFile: string): string[] {
  const db = openReadOnlyDb(dbFile);
  try {
    const rows = db
      .prepare(
        `SELECT er.lineage_id AS l, e.effective_date || ':' || er.ord AS at FROM edition_rules er
         JOIN editions e ON e.id = er.edition_id WHERE e.official = 1 ORDER BY e.effective_date, er.ord`,
      )
      .all() as Array<{ l: number; at: string }>;
    const groups = new Map<number, string[]>();
    for (const r of rows) {
      const g = groups.get(r.l);
      if (g) g.push(r.at);
      else groups.set(r.l, [r.at]);
    }
    return [...groups.values()].map((g) => g.join(' ')).sort();
  } finally {
    db.close();
  }
}

test('lineage from one run (aligned on the parse workers) equals lineage built edition by edition', async () => {
  const files = ['2020-09-25', '2020-11-20', '2021-02-02', '2021-02-24', '2021-04-19', '2021-06-09'].map((d) => file(`rulesraker/${d}.txt`));
  const dir = tmp();
  const together = join(dir, 'together.db');
  const r = await runIngest({ inputs: expandInputs(files), dbFile: together });
  assert.equal(r.editions.length, 6);
  const oneByOne = join(dir, 'one-by-one.db');
  for (const f of files) await runIngest({ inputs: expandInputs([f]), dbFile: oneByOne });
  const a = lineagePartition(together);
  const b = lineagePartition(oneByOne);
  assert.ok(a.length > 2000, `lineages: ${a.length}`);
  assert.deepEqual(a, b);
});

/** Rule and glossary versions no edition holds, and texts nothing held refers to: what replacing an edition could leave behind. */
function unusedTexts(dbFile: string): number {
  const db = openReadOnlyDb(dbFile);
  try {
    return db
      .prepare(
        `WITH held AS (SELECT * FROM rule_versions WHERE id IN (SELECT version_id FROM edition_rules)),
              terms AS (SELECT * FROM glossary_versions WHERE id IN (SELECT version_id FROM edition_glossary))
         SELECT (SELECT count(*) FROM texts WHERE id NOT IN (
                   SELECT text_id FROM held
                   UNION SELECT j.value FROM held, json_each(held.examples) j
                   UNION SELECT text_id FROM terms
                   UNION SELECT text_id FROM fragment_rules))
              + (SELECT count(*) FROM rule_versions WHERE id NOT IN (SELECT id FROM held))
              + (SELECT count(*) FROM glossary_versions WHERE id NOT IN (SELECT id FROM terms))`,
      )
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
}

function primaries(dbFile: string): string[] {
  const db = openReadOnlyDb(dbFile);
  try {
    return (db.prepare(`SELECT path || ' ' || role FROM source_files ORDER BY path`).pluck().all() as string[]).map((p) => p.split('/').slice(-2).join('/'));
  } finally {
    db.close();
  }
}

test('a file that joins an edition stored already (its date guessed wrong) gives the same database', async () => {
  // Two copies of 2003-10-01 that differ (53 entries), and 2003-12-01: with every guess wrong, each
  // edition is stored from its first file and the second one arrives late, in both orders.
  const a = file('mtg-cr/CR-2003-10-01.txt');
  const b = file('rulesraker/2003-10-01.txt');
  const december = file('rulesraker/2003-12-01.txt');
  const dir = tmp();
  const reference = join(dir, 'reference.db');
  await runIngest({ inputs: expandInputs([a, b, december]), dbFile: reference });
  const expected = [editionSnapshot(reference, '2003-10-01'), editionSnapshot(reference, '2003-12-01')];
  for (const [k, order] of [
    [a, b, december],
    [b, a, december],
  ].entries()) {
    const db = join(dir, `late-${k}.db`);
    const r = await runIngest({ inputs: expandInputs(order), dbFile: db, expectedDate: () => '1990-01-01' });
    assert.deepEqual(
      r.editions.map((e) => [e.effectiveDate, e.status, e.files.length]),
      [
        ['2003-10-01', 'added', 2],
        ['2003-12-01', 'added', 1],
      ],
    );
    assert.deepEqual([editionSnapshot(db, '2003-10-01'), editionSnapshot(db, '2003-12-01')], expected);
    assert.deepEqual(primaries(db), primaries(reference));
    assert.deepEqual(lineagePartition(db), lineagePartition(reference));
    assert.equal(unusedTexts(db), 0, 'texts of the file stored first and then replaced are gone');
  }
});

test('replacing an edition with a better file in a later run leaves no unused texts behind', async () => {
  const a = file('mtg-cr/CR-2003-10-01.txt');
  const b = file('rulesraker/2003-10-01.txt');
  const dir = tmp();
  const statuses: string[] = [];
  for (const [k, [first, second]] of [
    [a, b],
    [b, a],
  ].entries()) {
    const db = join(dir, `x-${k}.db`);
    await runIngest({ inputs: expandInputs([first!]), dbFile: db });
    const r = await runIngest({ inputs: expandInputs([second!]), dbFile: db });
    statuses.push(r.editions[0]!.status);
    assert.equal(unusedTexts(db), 0);
  }
  // one of the two files is the better one: it replaces the other in exactly one order
  assert.deepEqual(statuses.sort(), ['merged', 'replaced']);
});

test('temporary copies left by killed ingest runs are removed by the next run, even one that writes nothing', async () => {
  const dir = tmp();
  const db = join(dir, 'x.db');
  const { spawnSync } = await import('node:child_process');
  const { existsSync, rmSync } = await import('node:fs');
  const input = expandInputs([file('rulesraker/2003-03-15.txt')]);
  await runIngest({ inputs: input, dbFile: db });
  // the pid of a process that has exited, and one that lives on but is no ingest (ids are reused)
  const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
  writeFileSync(`${db}.tmp-${gone}`, 'half-written');
  writeFileSync(`${db}.tmp-${process.ppid}`, 'half-written');
  const r = await runIngest({ inputs: input, dbFile: db });
  assert.equal(r.wrote, false);
  assert.equal(existsSync(`${db}.tmp-${gone}`), false);
  assert.equal(existsSync(`${db}.tmp-${process.ppid}`), false, 'under the lock no other run is writing a copy');
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `fn` with a database file in a temporary folder, removed afterwards. */
async function inTmpDb(fn: (db: string) => Promise<void>): Promise<void> {
  const dir = tmp();
  try {
    await fn(join(dir, 'x.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('bytes of another code page are repaired by the reading other editions attest, each repair a warning', () =>
  inTmpDb(async (db) => {
    // 2013-07-11 and 2006-10-01 hold CP437 and Mac Roman bytes; 2014-05-01 (UTF-8) prints the names
    const inputs = expandInputs([file('mtg-cr/CR-2013-07-11.txt'), file('rulesraker/2006-10-01.txt'), file('mtg-cr/CR-2014-05-01.txt')]);
    const r = await runIngest({ inputs, dbFile: db });
    assert.deepEqual(r.rejected, []);
    const july = editionSnapshot(db, '2013-07-13');
    for (const word of ['Dandân', 'Ghazbán', 'Junún', 'Juzám', 'Khabál', "Ma'rûf", 'Æther Storm', 'El-Hajjâj']) assert.ok(july.includes(word), word);
    assert.ok(!/Dandƒn|Jun£n|r–f|’ther|Ghazb\u00a0n/.test(july), 'no Windows-1252 reading left');
    assert.ok(editionSnapshot(db, '2006-10-01').includes('El-Hajjâj'));
    const warnings = r.editions.find((e) => e.effectiveDate === '2013-07-13')!.warnings.filter((w) => /another code page/.test(w));
    assert.equal(warnings.length, 8);
    assert.ok(
      warnings.some((w) => /CR-2013-07-11\.txt:2489: "Dandƒn" .* read as "Dandân" \(cp437\)/.test(w)),
      warnings.join('\n'),
    );
  }));

test('with no edition attesting any reading, an ambiguous byte is kept as read and reported', () =>
  inTmpDb(async (db) => {
    const r = await runIngest({ inputs: expandInputs([file('mtg-cr/CR-2013-07-11.txt')]), dbFile: db });
    assert.ok(editionSnapshot(db, '2013-07-13').includes('Dandƒn'));
    const warnings = r.editions[0]!.warnings;
    assert.ok(
      warnings.some((w) => /:2489: "Dandƒn" .* no other edition settles .*"Dandân" \(cp437\)/.test(w)),
      warnings.join('\n'),
    );
    assert.ok(!warnings.some((w) => /another code page/.test(w)));
  }));

test('the Rulings Summaries notes are stored with their section and citations (edition_notes)', () =>
  inTmpDb(async (db) => {
    await runIngest({ inputs: expandInputs([file('mtg-cr/CR-1999-04-21.txt')]), dbFile: db });
    const r = openReadOnlyDb(db);
    try {
      const rows = r
        .prepare(
          `SELECT n.section, t.body, n.citations FROM edition_notes n JOIN editions e ON e.id = n.edition_id JOIN texts t ON t.id = n.text_id
           WHERE e.family = 'rulings' ORDER BY n.ord`,
        )
        .all() as Array<{ section: string; body: string; citations: string | null }>;
      assert.equal(rows.length, 196);
      assert.deepEqual(rows[0], { section: 'A.1', body: 'The text "Counts as a <-something->" is not an ability. See Rule G.10.2.', citations: null });
      const cited = rows.flatMap((x) => (x.citations ? (JSON.parse(x.citations) as unknown[]) : []));
      assert.equal(cited.length, 24);
    } finally {
      r.close();
    }
  }));

test('a run with editions repaired after parsing stores the same texts and lineage as editions ingested one by one', () =>
  inTmpDb(async (together) => {
    // the 2013 files hold CP437 bytes repaired by the evidence of 2014-05-01 (UTF-8)
    const files = ['CR-2013-04-29', 'CR-2013-07-11', 'CR-2013-09-27', 'CR-2013-11-01', 'CR-2014-02-01', 'CR-2014-05-01'].map((d) => file(`mtg-cr/${d}.txt`));
    const r = await runIngest({ inputs: expandInputs(files), dbFile: together });
    assert.ok(
      r.editions.some((e) => e.warnings.some((w) => /another code page/.test(w))),
      'something was repaired',
    );
    const oneByOne = `${together}.one-by-one`;
    // the evidence first, so each repair is the same
    for (const f of [files[5]!, ...files.slice(0, 5)]) await runIngest({ inputs: expandInputs([f]), dbFile: oneByOne });
    assert.equal(editionSnapshot(together, '2013-07-13'), editionSnapshot(oneByOne, '2013-07-13'));
    assert.deepEqual(lineagePartition(together), lineagePartition(oneByOne));
  }));
