import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseInput } from '../../ingest/store/parseInput.js';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { renditionOf } from '../../ingest/store/renditionOf.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { tempDir } from '../support/tempDir.js';

const policy = path.resolve(process.cwd(), '..', 'shared', 'policy');
const fixtures = path.join(process.cwd(), 'test', 'fixtures', 'policy');

// hand-checked fixtures: the file each was written from
const SOURCES: Record<string, string> = {
  'mtr-2000-06-01': 'mtr/2000-06-01.pdf',
  'mtr-2005-03-20': 'mtr/2005-03-20.pdf',
  'mtr-2008-03-01': 'mtr/2008-03-01.txt',
  'mtr-2009-07-01': 'mtr/2009-07-01.txt',
  'mtr-2014-05-02': 'mtr/2014-05-02.pdf',
  'mtr-2021-07-23': 'mtr/2021-07-23.pdf',
  'ipg-2001-11-01': 'ipg/2001-11-01.pdf',
  'ipg-2005-01-20': 'ipg/2005-01-20.pdf',
  'ipg-2007-09-20': 'ipg/2007-09-20.pdf',
  'ipg-2009-07-01': 'ipg/2009-07-01.pdf',
  'ipg-2013-02-08': 'ipg/2013-02-08.pdf',
  'ipg-2021-02-05': 'ipg/2021-02-05.pdf',
  // editions the folder holds only as HTML renditions (MTG Familiar's: calibre, bluewizard, the judges' blog)
  'mtr-2016-01-22': 'mtr/2016-01-22.html',
  'mtr-2017-09-29': 'mtr/2017-09-29.html',
  // pdftohtml's rendition of the PDF (absolutely placed runs), checked against its own contents list
  'mtr-2021-09-24': 'mtr/2021-09-24.html',
  'ipg-2016-01-22': 'ipg/2016-01-22.html',
  // renditions (the judges' blog) stating a date no official copy has: the parse is checked, not an edition
  'ipg-2018-05-04': 'ipg/2018-05-04.html',
  'ipg-2018-10-03': 'ipg/2018-10-03.html',
  'ipg-2021-02-06': 'ipg/2021-02-06.html',
  // the JAR: its official PDF, and the edition the folder holds only as the judges' blog's rendition (numbers by crkb)
  'jar-2014-09-26': 'jar/2014-09-26.pdf',
  'jar-2019-01-21': 'jar/2019-01-21.html',
};
// renditions that state no date: filed under the date inferred from their content (the folder's README)
const NO_DATE = new Set(['mtr/2016-01-22.html']);
// renditions whose fixture is their parse, filed as copies of the official edition they render (see renditionOf)
const FILED_UNDER: Record<string, string> = {
  'ipg/2018-05-04.html': 'ipg/2018-04-27.pdf',
  'ipg/2018-10-03.html': 'ipg/2018-10-05.pdf',
  'ipg/2021-02-06.html': 'ipg/2021-02-05.pdf',
};

test('every hand-checked fixture (9 MTR, 7 IPG and 2 JAR editions across the eras and formats, 3 IPG renditions of other dates) matches the parse of its document', async () => {
  assert.deepEqual(
    fs.readdirSync(fixtures).sort(),
    Object.keys(SOURCES)
      .map((k) => `${k}.tsv`)
      .sort(),
  );
  for (const [name, rel] of Object.entries(SOURCES)) {
    const file = path.join(policy, rel);
    const { doc } = await parseInput(file, fs.readFileSync(file));
    const expected = fs
      .readFileSync(path.join(fixtures, `${name}.tsv`), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t'));
    assert.equal(`${doc.family}-${NO_DATE.has(rel) ? /\d{4}-\d{2}-\d{2}/.exec(rel)![0] : doc.effectiveDate}`, name, rel);
    if (NO_DATE.has(rel)) assert.equal(doc.effectiveDate, null, rel);
    assert.deepEqual(
      doc.rules.map((r) => [r.number, r.title]),
      expected,
      rel,
    );
    assert.deepEqual(doc.accounting.unaccounted, [], rel);
    const pdf = FILED_UNDER[rel];
    if (pdf) {
      // the PDF it renders has its sections: the ingest files it under the PDF's edition
      const { doc: official } = await parseInput(path.join(policy, pdf), fs.readFileSync(path.join(policy, pdf)));
      const headings = (d: typeof doc): Array<[string, string]> => d.rules.map((r) => [r.number, r.title ?? '']);
      assert.equal(
        renditionOf(doc.effectiveDate!, headings(doc), [{ date: official.effectiveDate!, headings: () => headings(official) }])?.date,
        official.effectiveDate,
        rel,
      );
    }
  }
});

// the HTML-only files and their nearest PDFs (MTR), with the whole IPG folder
const FILING = ['ipg', 'mtr/2016-01-22.html', 'mtr/2017-09-01.pdf', 'mtr/2017-09-29.html', 'mtr/2021-07-23.pdf', 'mtr/2021-09-24.html'];

test("ingest files the blog's IPG renditions of 2018-05-04, 2018-10-03 and 2021-02-06 as copies of the PDFs' editions; the editions known only as HTML stay; ipg latest is 2021-02-05", async () => {
  const db = path.join(tempDir('crkb-filing-'), 'kb.db');
  const report = await runIngest({ inputs: expandInputs(FILING.map((f) => path.join(policy, f))), dbFile: db });
  const editions = report.editions.map((e) => `${e.family}:${e.effectiveDate}`);
  for (const e of ['ipg:2016-01-22', 'ipg:2016-09-30', 'ipg:2018-04-27', 'mtr:2016-01-22', 'mtr:2017-09-29', 'mtr:2021-09-24'])
    assert.ok(editions.includes(e), e);
  for (const e of ['ipg:2018-05-04', 'ipg:2018-10-03', 'ipg:2021-02-06']) assert.ok(!editions.includes(e), e);
  for (const [html, pdf] of Object.entries(FILED_UNDER)) {
    const date = /\d{4}-\d{2}-\d{2}/.exec(pdf)![0];
    const edition = report.editions.find((e) => e.family === 'ipg' && e.effectiveDate === date)!;
    assert.equal(edition.primary, path.join(policy, pdf), html);
    assert.ok(
      edition.files.some((f) => f.path === path.join(policy, html)),
      html,
    );
    assert.ok(
      edition.warnings.some(
        (w) => w.startsWith(`${path.join(policy, html)}: states ${/\d{4}-\d{2}-\d{2}/.exec(html)![0]},`) && w.includes(`copy of the ${date} edition`),
      ),
      html,
    );
  }
  const kb = KnowledgeBase.open(db);
  try {
    assert.equal(kb.resolveEdition('latest', 'ipg').edition.effectiveDate, '2021-02-05');
    assert.equal(kb.resolveEdition('latest', 'mtr').edition.effectiveDate, '2021-09-24');
  } finally {
    kb.close();
  }
});

// the documents the parser cannot use, each with the reason it gives
const REJECTED = new Map<string, RegExp>([['mtr/1994-01-26.txt', /no numbered sections/]]);
// the fewest numbered units an edition of a family has: the 2014 IPGs (4 sections, 25 infractions), the 2000 Floor
// Rules (35 units); the JAR's 10 (its introduction, 4 headings, 5 issues: numbered by crkb)
const MIN_UNITS: Record<string, number> = { mtr: 25, ipg: 25, jar: 10 };
// the documents that misstate their own year (README "Dates inside the text can be wrong"): filed under the file's date all the same
const YEAR_SLIPS = new Set(['mtr/2021-02-05.pdf']);

test('every MTR, IPG and JAR PDF, Word and text file parses: its family and stated date, units, no line unaccounted', async () => {
  const files: string[] = [];
  for (const family of ['mtr', 'ipg', 'jar']) {
    for (const dir of [family, `${family}/variants`].filter((d) => fs.existsSync(path.join(policy, d)))) {
      for (const name of fs.readdirSync(path.join(policy, dir))) if (/\.(pdf|doc|txt)$/.test(name)) files.push(`${dir}/${name}`);
    }
  }
  assert.ok(files.length >= 110, `${files.length} files`);
  const counts = new Map<string, number>();
  for (const rel of files) {
    const file = path.join(policy, rel);
    const reject = REJECTED.get(rel);
    if (reject) {
      await assert.rejects(parseInput(file, fs.readFileSync(file)), (e: unknown) => e instanceof IngestError && reject.test(e.reason), rel);
      continue;
    }
    const { doc } = await parseInput(file, fs.readFileSync(file));
    const family = rel.split('/')[0]!;
    const date = /(\d{4}-\d{2}-\d{2})/.exec(rel)![1]!;
    assert.equal(doc.family, family, rel);
    assert.equal(doc.effectiveDate, date, rel);
    assert.equal(
      doc.warnings.some((w) => w.code === 'date-corrected'),
      YEAR_SLIPS.has(rel),
      rel,
    );
    assert.deepEqual(doc.accounting.unaccounted, [], rel);
    const numbered = doc.rules.filter((r) => r.kind !== 'appendix').length;
    assert.ok(numbered >= MIN_UNITS[family]!, `${rel}: ${numbered} numbered units`);
    assert.ok(
      doc.rules.every((r) => r.title !== undefined && r.title !== ''),
      rel,
    );
    counts.set(family, (counts.get(family) ?? 0) + 1);
  }
  assert.ok((counts.get('mtr') ?? 0) >= 60 && (counts.get('ipg') ?? 0) >= 45 && counts.get('jar') === 1, JSON.stringify([...counts]));
});

// the HTML renditions the parser does not read, each with the reason it gives (the same editions come as PDFs)
const HTML_REJECTED = new Map<string, RegExp>([
  ['mtr/2017-11-17.html', /pdf2htmlEX/],
  // the judges' blog MTR (the IPG's blog pages are read): its layout is not read
  ['mtr/2018-04-27.html', /have no text under their heading/],
  ['mtr/2018-10-05.html', /have no text under their heading/],
  ['mtr/2019-01-21.html', /have no text under their heading/],
  ['mtr/2019-05-03.html', /have no text under their heading/],
]);

test('every HTML rendition parses (its family, its date stated or filed under, no line unaccounted) or is rejected with its reason', async () => {
  const files = ['mtr', 'ipg', 'jar'].flatMap((family) =>
    fs
      .readdirSync(path.join(policy, family))
      .filter((n) => n.endsWith('.html'))
      .map((n) => `${family}/${n}`),
  );
  assert.ok(files.length >= 46, `${files.length} files`);
  for (const rel of files) {
    const file = path.join(policy, rel);
    const reject = HTML_REJECTED.get(rel);
    if (reject) {
      await assert.rejects(parseInput(file, fs.readFileSync(file)), (e: unknown) => e instanceof IngestError && reject.test(e.reason), rel);
      continue;
    }
    const { doc } = await parseInput(file, fs.readFileSync(file));
    assert.equal(doc.family, rel.split('/')[0], rel);
    assert.ok(doc.effectiveDate === null || rel.includes(doc.effectiveDate), `${rel}: ${doc.effectiveDate}`);
    assert.deepEqual(doc.accounting.unaccounted, [], rel);
    assert.ok(doc.rules.filter((r) => r.kind !== 'appendix').length >= MIN_UNITS[rel.split('/')[0]!]!, rel);
  }
});
