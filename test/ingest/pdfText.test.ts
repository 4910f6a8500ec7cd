import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeGlyphs, pdfText, type PdfItem, type PdfPage } from '../../ingest/parse/pdfText.js';
import { readPdf } from '../../ingest/store/readPdf.js';
import { parseInput } from '../../ingest/store/parseInput.js';
import { IngestError } from '../../ingest/parse/IngestError.js';

const policy = path.resolve(process.cwd(), '..', 'shared', 'policy');

/** A page of 10-point lines, 12 points apart from the top, in font F1 unless given. */
function page(lines: Array<string | { text: string; size?: number; gap?: number; runs?: Array<[string, string]> }>, extra: PdfItem[] = []): PdfPage {
  const items: PdfItem[] = [];
  let y = 700;
  for (const l of lines) {
    const o = typeof l === 'string' ? { text: l } : l;
    y -= o.gap ?? 12;
    const size = o.size ?? 10;
    let x = 72;
    for (const [str, font] of o.runs ?? [[o.text, 'F1']]) {
      items.push({ str, x, y, width: str.length * size * 0.5, size, font });
      x += str.length * size * 0.5 + size * 0.25;
    }
  }
  return { width: 612, height: 792, items: [...items, ...extra] };
}

const footer = (n: number): PdfItem => ({ str: String(n), x: 300, y: 40, width: 6, size: 10, font: 'F1' });

test('wrapped lines join into one paragraph a line; a wider gap, a new size or a bullet starts the next', () => {
  const { text } = pdfText([
    page([
      { text: '2.1. Game Play Error — Missed Trigger', size: 12 },
      'A triggered ability triggers, but the player',
      'forgets it.',
      { text: 'Players are expected to remember', gap: 24 },
      'their triggers.',
      '• first bullet',
      '• second bullet',
    ]),
  ]);
  assert.deepEqual(text.split('\n').filter(Boolean), [
    '2.1. Game Play Error — Missed Trigger',
    'A triggered ability triggers, but the player forgets it.',
    'Players are expected to remember their triggers.',
    '• first bullet',
    '• second bullet',
  ]);
});

test('page numbers and running headers go; a paragraph broken by a page goes on', () => {
  const header = (): PdfItem => ({ str: 'Magic Infraction Procedure Guide', x: 72, y: 760, width: 200, size: 9, font: 'F1' });
  const { text, stats } = pdfText([
    page(['The first page ends with awareness of'], [footer(1), header()]),
    page(['the resulting objects, and ends.', 'Next line.'], [footer(2), header()]),
    page(['Third page.'], [footer(3), header()]),
  ]);
  assert.deepEqual(text.split('\n').filter(Boolean), ['The first page ends with awareness of the resulting objects, and ends. Next line.', 'Third page.']);
  assert.equal(stats.furniture, 6);
});

test('a line-end hyphen goes only when the document spells the word whole and never hyphenated', () => {
  const { text, stats } = pdfText([
    page([
      'This is a DCI-',
      'sanctioned event with a pre-',
      'game procedure and a two-',
      'person team.',
      { text: 'The pregame procedure is short; a person team is not a two person team.', gap: 30 },
    ]),
  ]);
  const first = text.split('\n')[0]!;
  assert.equal(first, 'This is a DCI-sanctioned event with a pregame procedure and a two-person team.');
  assert.equal(stats.hyphensDropped, 1);
  assert.equal(stats.hyphensKept, 2);
});

test('ligatures and symbol-font bullets are decoded, soft hyphens dropped', () => {
  assert.deepEqual(decodeGlyphs('\uf0b7 ﬁrst ﬂoor ef\u00adfect'), { text: '• first floor effect', count: 4 });
  const { text } = pdfText([page(['\uf0f1 the ﬁnal step'])]);
  assert.equal(text, '• the final step\n');
});

test('a run-in heading gets a tab where its font changes to the body font', () => {
  const { text } = pdfText([
    page([
      {
        text: '',
        runs: [
          ['112. Match Time Limits', 'Bold'],
          ['The required minimum time limit is 40 minutes.', 'F1'],
        ],
      },
    ]),
  ]);
  assert.equal(text, '112. Match Time Limits\tThe required minimum time limit is 40 minutes.\n');
});

test('a real PDF: the 2014 JAR reads in order, its symbol-font bullets decoded', async () => {
  const file = path.join(policy, 'jar', '2014-09-26.pdf');
  const { text, stats } = pdfText(await readPdf(file, fs.readFileSync(file)));
  assert.equal(stats.pages, 2);
  assert.equal(stats.glyphs, 8);
  assert.doesNotMatch(text, /[\ue000-\uf8ff]/);
  const lines = text.split('\n');
  assert.equal(lines[0], 'Judging at Regular Rules Enforcement Level (REL)');
  assert.equal(lines[1], 'Updated September 26, 2014');
  assert.ok(lines.includes('Common Issues'), 'a heading is a paragraph of its own');
});

test('a real PDF: characters become runs of one font on one baseline, a larger word inside a line keeps its size', async () => {
  const file = path.join(policy, 'mtr', '2001-11-01.pdf');
  const pages = await readPdf(file, fs.readFileSync(file));
  const runs = pages.flatMap((p) => p.items).filter((i) => /Friday Night|Premier$/.test(i.str));
  assert.ok(runs.length >= 2);
  // "Magic" is set larger in "Friday Night Magic": the line is still one paragraph with the next
  assert.ok(runs.every((r) => r.size === 12));
  const { text } = pdfText(pages);
  assert.match(text, /\nFriday Night Magic \(8K, REL 1\): This program is offered exclusively through Premier stores\. Prizes/);
});

test('bytes that are no PDF, or a damaged one, are rejected by name', async () => {
  await assert.rejects(
    readPdf('x.pdf', new TextEncoder().encode('hello')),
    (e: unknown) => e instanceof IngestError && e.source === 'x.pdf' && /no %PDF- header/.test(e.reason),
  );
  await assert.rejects(readPdf('y.pdf', new TextEncoder().encode('%PDF-1.4\n')), (e: unknown) => e instanceof IngestError && /^corrupt PDF/.test(e.reason));
});

/** A PDF of `objects` (object 1 the catalog) with a valid cross-reference table. */
function handMadePdf(objects: string[], trailer = ''): Uint8Array {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` + offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
const onePage = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'];

test('a PDF with no text (a scan) is rejected by name; a password-protected one too', async () => {
  const blank = handMadePdf(onePage);
  assert.deepEqual(await readPdf('blank.pdf', blank), [{ width: 612, height: 792, items: [] }]);
  await assert.rejects(
    parseInput('scan.pdf', blank),
    (e: unknown) => e instanceof IngestError && e.source === 'scan.pdf' && /no text \(scanned pages\?\)/.test(e.reason),
  );
  // the standard security handler with an owner and user password that the empty password does not open
  const key = 'ab'.repeat(32);
  const locked = handMadePdf(
    [...onePage, `<< /Filter /Standard /V 1 /R 2 /O <${key}> /U <${key}> /P -4 >>`],
    `/Encrypt 4 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>] `,
  );
  await assert.rejects(
    readPdf('locked.pdf', locked),
    (e: unknown) => e instanceof IngestError && e.source === 'locked.pdf' && /^password-protected PDF/.test(e.reason),
  );
});

/** A one-page PDF whose content stream `content` writes in Helvetica as /F1, with a ToUnicode CMap of `bfchar` lines if given. */
function helveticaPdf(content: string, bfchar: string[] = []): Uint8Array {
  const cmap = `/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def 1 begincodespacerange <00> <FF> endcodespacerange ${bfchar.length} beginbfchar ${bfchar.join(' ')} endbfchar endcmap CMapName currentdict /CMap defineresource pop end end`;
  return handMadePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica ${bfchar.length > 0 ? '/ToUnicode 6 0 R ' : ''}>>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...(bfchar.length > 0 ? [`<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`] : []),
  ]);
}

test('a line of many thousand characters in several text objects is one run, every character kept in order', async () => {
  const [b, c] = ['b'.repeat(6000), 'c'.repeat(6000)];
  const [page] = await readPdf('long-line.pdf', helveticaPdf(`BT /F1 1 Tf 10 700 Td (${b}) Tj (${c}) Tj ET`));
  assert.deepEqual(
    page!.items.map((i) => [i.str === b + c, i.str.length, i.font, i.size]),
    [[true, 12000, 'Helvetica', 1]],
  );
});

test('a character beyond U+FFFF (PDFium gives its two UTF-16 halves apart) stays whole in its run', async () => {
  // the code of "A" stands for U+1F600, written in the CMap as its UTF-16 pair
  const [page] = await readPdf('astral.pdf', helveticaPdf('BT /F1 12 Tf 10 700 Td (xAbbbA) Tj ET', ['<41> <D83DDE00>']));
  assert.deepEqual(
    page!.items.map((i) => i.str),
    ['x\u{1F600}bbb\u{1F600}'],
  );
});
