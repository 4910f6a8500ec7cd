import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { RENDITION_WINDOW_DAYS, renditionOf, sameSections, type Heading, type OfficialEdition } from '../../ingest/store/renditionOf.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { ipgText } from '../support/policyFixture.js';
import { tempDir } from '../support/tempDir.js';

// the hand-checked fixtures' units (number, title), as written from the documents
const headings = (name: string): Heading[] =>
  fs
    .readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'policy', `${name}.tsv`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t') as [string, string]);

const official = (date: string, hs: Heading[]): OfficialEdition => ({ date, headings: () => hs });

test("the blog's IPG of 'Feb 6, 2021' renders the PDF of February 5, 2021: the same 32 numbered sections, every title alike (dashes, case aside)", () => {
  const blog = headings('ipg-2021-02-06');
  const pdf = headings('ipg-2021-02-05');
  assert.deepEqual(sameSections(blog, pdf), [32, 32]);
  const match = renditionOf('2021-02-06', blog, [official('2020-09-25', pdf), official('2021-02-05', pdf)]);
  assert.deepEqual(match && { date: match.date, days: match.days, sections: match.sections, alike: match.alike }, {
    date: '2021-02-05',
    days: 1,
    sections: 32,
    alike: 32,
  });
});

test('a rendition is filed under no edition farther than the window, nor one it shares the date with, nor between two equally near', () => {
  const blog = headings('ipg-2021-02-06');
  const pdf = headings('ipg-2021-02-05');
  assert.equal(RENDITION_WINDOW_DAYS, 7);
  // 7 days is in (IPG 2018-05-04 and the PDF of 2018-04-27), 8 is out
  assert.equal(renditionOf('2021-02-12', blog, [official('2021-02-05', pdf)])?.days, 7);
  assert.equal(renditionOf('2021-02-13', blog, [official('2021-02-05', pdf)]), null);
  // MTR 2017-09-29 (bluewizard) is 28 days from the PDF of 2017-09-01: an edition of its own
  const mtr = headings('mtr-2017-09-29');
  assert.equal(renditionOf('2017-09-29', mtr, [official('2017-09-01', mtr)]), null);
  assert.equal(renditionOf('2021-02-05', blog, [official('2021-02-05', pdf)]), null);
  assert.equal(renditionOf('2021-02-06', blog, [official('2021-02-03', pdf), official('2021-02-09', pdf)]), null);
  assert.equal(renditionOf('2021-02-06', blog, [official('2021-02-03', pdf), official('2021-02-08', pdf)])?.date, '2021-02-08');
});

test("a rendition whose sections are not the edition's (another document, another structure, other titles) is not filed under it", () => {
  const blog = headings('ipg-2021-02-06');
  const pdf = headings('ipg-2021-02-05');
  // another family's units
  assert.equal(sameSections(blog, headings('mtr-2021-09-24')), null);
  // a section more (the 2016 IPG's 29 numbered units against 2021's 32)
  assert.equal(sameSections(headings('ipg-2016-01-22'), pdf), null);
  assert.equal(sameSections(blog, [...pdf, ['4.9', 'Unsporting Conduct — Theft']]), null);
  // appendices aside: renditions leave them out, and their letters are reused
  assert.deepEqual(
    sameSections(
      blog.filter(([n]) => !n.startsWith('Appendix')),
      pdf,
    ),
    [32, 32],
  );
  // titles: 26 of 32 alike is 81 %, 25 is 78 %
  const retitled = (k: number): Heading[] => pdf.map(([n, t], i) => [n, i < k + 1 && /^\d/.test(n) && i > 0 ? `${t} (renamed)` : t] as const);
  assert.deepEqual(sameSections(blog, retitled(6)), [32, 26]);
  assert.equal(sameSections(blog, retitled(7)), null);
  assert.equal(renditionOf('2021-02-06', blog, [official('2021-02-05', retitled(7))]), null);
});

// An IPG rendition as the judges' blog gives it, stating `effective`, with the sections of the fixture IPG of 2021 (see ipgText)
function blogIpg(effective: string): string {
  const entry = (id: string, title: string): string => `<header class="entry-header" id="${id}"><h1 class="entry-title">IPG ${title}</h1></header>`;
  return [
    '2021-1-10',
    '<!doctype html><html><head><meta charset="utf-8"><title>Magic Infraction Procedure Guide</title></head>',
    '<header class="entry-header" id="ipg"><h1 class="entry-title">Magic Infraction Procedure Guide</h1></header>',
    `<div><em>Effective ${effective}</em></div>`,
    entry('ipg1', '1. General Philosophy'),
    '<p>Judges are neutral arbiters.</p>',
    entry('ipg2', '2. Game Play Errors'),
    '<p>Game Play Errors are caused by incorrect play.</p>',
    entry('ipg2-1', '2.1 Game Play Error - Missed Trigger'),
    '<h2>Definition</h2><p>A triggered ability triggers, but the player controlling it forgets it.</p>',
    '<div class="alert"><p><strong>Penalty</strong></p><p>Warning</p></div>',
    entry('ipg2-2', '2.2 Game Play Error - Hidden Card Error'),
    '<h2>Definition</h2><p>A player commits an error that cannot be verified.</p>',
    entry('ipg2-3', '2.3 Game Play Error - Looking at Extra Cards'),
    '<h2>Definition</h2><p>A player takes an action that may have allowed them to see cards they were not entitled to see.</p>',
    entry('ipg-appendix-a', 'Appendix A - Penalty Quick Reference'),
    '<p>Missed Trigger: Warning</p>',
    '</html>',
  ].join('\n');
}

/** A new folder under `dir` holding one input file: its path (one run's inputs). */
function inputFolder(dir: string, name: string, text: string): string {
  const d = fs.mkdtempSync(path.join(dir, 'in-'));
  fs.writeFileSync(path.join(d, name), text);
  return d;
}

/** The editions stored (family:date) and the file of each, primary or a copy. */
function stored(db: string): string[] {
  const d = new Database(db, { readonly: true });
  try {
    return d
      .prepare(
        `SELECT e.family || ':' || e.effective_date || ' ' || replace(f.path, rtrim(f.path, replace(f.path, '/', '')), '') || ' ' || f.role AS row
         FROM source_files f JOIN editions e ON e.id = f.edition_id ORDER BY row`,
      )
      .pluck()
      .all() as string[];
  } finally {
    d.close();
  }
}

test("ingest: a rendition stating 'Feb 6, 2021' is filed as a copy of the official 2021-02-05 edition of the same run, and says so; ipg latest is 2021-02-05", async () => {
  const dir = tempDir('crkb-rendition-');
  fs.writeFileSync(path.join(dir, 'ipg-2021.txt'), ipgText(true));
  fs.writeFileSync(path.join(dir, 'ipg-blog.html'), blogIpg('Feb 6, 2021'));
  const db = path.join(dir, 'kb.db');
  const report = await runIngest({ inputs: expandInputs([dir]), dbFile: db });
  assert.deepEqual(report.rejected, []);
  assert.deepEqual(
    report.editions.map((e) => `${e.family}:${e.effectiveDate} ${e.files.length}`),
    ['ipg:2021-02-05 2'],
  );
  assert.deepEqual(stored(db), ['ipg:2021-02-05 ipg-2021.txt primary', 'ipg:2021-02-05 ipg-blog.html duplicate']);
  const line = report.editions[0]!.warnings.find((w) => w.includes('ipg-blog.html'));
  assert.match(
    line ?? '',
    /ipg-blog\.html: states 2021-02-06, .* filed as a copy of the 2021-02-05 edition \(1 day after it; the same 5 numbered sections, 5 with alike titles\)/,
  );
  // the note is the report's, not a warning of the edition
  const d = new Database(db, { readonly: true });
  assert.equal(d.prepare(`SELECT warnings FROM editions WHERE family = 'ipg'`).pluck().get(), '[]');
  d.close();
  const kb = KnowledgeBase.open(db);
  try {
    assert.equal(kb.resolveEdition('latest', 'ipg').edition.effectiveDate, '2021-02-05');
    assert.equal(kb.resolveEdition('2021-02-06', 'ipg').exact, false);
  } finally {
    kb.close();
  }
});

test('ingest: a rendition arriving after its official edition was stored joins that edition; one 8 days away or with other sections stays an edition', async () => {
  const dir = tempDir('crkb-rendition-');
  const db = path.join(dir, 'kb.db');
  const one = (name: string, text: string): string => inputFolder(dir, name, text);
  await runIngest({ inputs: expandInputs([one('ipg-2021.txt', ipgText(true))]), dbFile: db });
  const later = await runIngest({ inputs: expandInputs([one('ipg-blog.html', blogIpg('Feb 3rd, 2021'))]), dbFile: db });
  assert.deepEqual(
    later.editions.map((e) => `${e.family}:${e.effectiveDate} ${e.status}`),
    ['ipg:2021-02-05 merged'],
  );
  assert.match(later.editions[0]!.warnings.join('\n'), /ipg-blog\.html: states 2021-02-03, .* the 2021-02-05 edition \(2 days before it;/);
  // 8 days away: an edition of its own (Wizards publishes editions 14 days apart at the closest)
  const far = await runIngest({ inputs: expandInputs([one('ipg-far.html', blogIpg('Feb 13th, 2021'))]), dbFile: db });
  assert.deepEqual(
    far.editions.map((e) => `${e.family}:${e.effectiveDate} ${e.status}`),
    ['ipg:2021-02-13 added'],
  );
  // other sections (2.2 left out): an edition of its own
  const other = blogIpg('Feb 7th, 2021').replace(/<header[^\n]*id="ipg2-2"[^\n]*\n[^\n]*\n/, '');
  const third = await runIngest({ inputs: expandInputs([one('ipg-other.html', other)]), dbFile: db });
  assert.deepEqual(
    third.editions.map((e) => `${e.family}:${e.effectiveDate} ${e.status}`),
    ['ipg:2021-02-07 added'],
  );
  assert.deepEqual(stored(db), [
    'ipg:2021-02-05 ipg-2021.txt primary',
    'ipg:2021-02-05 ipg-blog.html duplicate',
    'ipg:2021-02-07 ipg-other.html primary',
    'ipg:2021-02-13 ipg-far.html primary',
  ]);
});

test('ingest: a rendition stored before the official edition it renders is absorbed when that edition arrives, as if both came in one run; one 8 days away stays', async () => {
  const dir = tempDir('crkb-rendition-');
  const db = path.join(dir, 'kb.db');
  const one = (name: string, text: string): string => inputFolder(dir, name, text);
  await runIngest({ inputs: expandInputs([one('ipg-2020.txt', ipgText(false)), one('ipg-blog.html', blogIpg('Feb 6, 2021'))]), dbFile: db });
  await runIngest({ inputs: expandInputs([one('ipg-far.html', blogIpg('Feb 13th, 2021'))]), dbFile: db });
  assert.deepEqual(stored(db), ['ipg:2020-09-25 ipg-2020.txt primary', 'ipg:2021-02-06 ipg-blog.html primary', 'ipg:2021-02-13 ipg-far.html primary']);
  const later = await runIngest({ inputs: expandInputs([one('ipg-2021.txt', ipgText(true))]), dbFile: db });
  assert.deepEqual(
    later.editions.map((e) => `${e.family}:${e.effectiveDate} ${e.status}`),
    ['ipg:2021-02-05 added'],
  );
  assert.match(
    later.editions[0]!.warnings.join('\n'),
    /ipg-blog\.html: states 2021-02-06, .* filed as a copy of the 2021-02-05 edition \(1 day after it; .*\); the 2021-02-06 edition stored from it before is removed/,
  );
  assert.doesNotMatch(later.editions[0]!.warnings.join('\n'), /ipg-far\.html/);
  assert.deepEqual(stored(db), [
    'ipg:2020-09-25 ipg-2020.txt primary',
    'ipg:2021-02-05 ipg-2021.txt primary',
    'ipg:2021-02-05 ipg-blog.html duplicate',
    'ipg:2021-02-13 ipg-far.html primary',
  ]);
  // the absorbed file counts the entries it differs in from the official copy, as when both come in one run
  const together = path.join(dir, 'together.db');
  await runIngest({ inputs: expandInputs([one('ipg-2021.txt', ipgText(true)), one('ipg-blog.html', blogIpg('Feb 6, 2021'))]), dbFile: together });
  const differing = (file: string): unknown => {
    const d = new Database(file, { readonly: true });
    try {
      return d.prepare(`SELECT role, differing FROM source_files WHERE path LIKE '%ipg-blog.html'`).get();
    } finally {
      d.close();
    }
  };
  assert.deepEqual(differing(db), differing(together));
  assert.ok((differing(db) as { differing: number }).differing > 0);
  // the chain runs 2020-09-25, 2021-02-05, 2021-02-13: 2.1's history and its neighbours' lineage skip the absorbed edition
  const kb = KnowledgeBase.open(db);
  try {
    assert.equal(kb.resolveEdition('2021-02-06', 'ipg').exact, false);
    const at = kb.resolveEdition('2021-02-05', 'ipg').edition;
    assert.deepEqual(
      kb.history(at, '2.1')!.steps.map((s) => s.date),
      ['2020-09-25', '2021-02-05', '2021-02-13'],
    );
  } finally {
    kb.close();
  }
  const d = new Database(db, { readonly: true });
  try {
    // nothing names the removed edition: every lineage record's editions exist
    const dangling = d
      .prepare(
        `SELECT count(*) FROM edition_lineage l WHERE l.edition_id NOT IN (SELECT id FROM editions) OR l.prev_edition_id NOT IN (SELECT id FROM editions)`,
      )
      .pluck()
      .get();
    assert.equal(dangling, 0);
  } finally {
    d.close();
  }
});
